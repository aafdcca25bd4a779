import { describe, expect, it } from "vitest";
import { githubRepoOf, githubWebHost, sameGitHubRepo } from "./github-repo";

describe("githubRepoOf", () => {
  it("reads owner/name from a repository URL on the GitHub of the API base", () => {
    expect(githubRepoOf("https://github.com/acme/shop.git", "https://api.github.com")).toBe("acme/shop");
    expect(githubRepoOf("https://GitHub.com/Acme/Shop/", "https://api.github.com")).toBe("Acme/Shop");
    expect(githubRepoOf("https://ghe.example.com/acme/shop.git", "https://ghe.example.com/api/v3")).toBe("acme/shop");
  });

  it("is null for another host, an archive, or a path that is not owner/name", () => {
    expect(githubRepoOf("https://gitlab.com/acme/shop.git", "https://api.github.com")).toBeNull();
    expect(githubRepoOf(null, "https://api.github.com")).toBeNull();
    expect(githubRepoOf("https://github.com/shop.git", "https://api.github.com")).toBeNull();
    expect(githubRepoOf("https://github.com/acme/shop/tree/main", "https://api.github.com")).toBeNull();
    expect(githubRepoOf("not a url", "https://api.github.com")).toBeNull();
  });

  it("compares without case, and maps API hosts to web hosts", () => {
    expect(sameGitHubRepo("Acme/Shop", "acme/shop")).toBe(true);
    expect(sameGitHubRepo("acme/shop", "victim/shop")).toBe(false);
    expect(githubWebHost("https://api.github.com")).toBe("github.com");
    expect(githubWebHost("https://ghe.example.com:8443/api/v3")).toBe("ghe.example.com");
  });
});
