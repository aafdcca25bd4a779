// Package config reads the CLI's settings from flags, environment and ~/.orderly.toml.
package config

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// Config holds what every subcommand needs to reach the API.
type Config struct {
	APIBaseURL string
	APIKey     string
	Timeout    time.Duration
}

// Load builds a Config: environment variables win over the config file.
func Load() (Config, error) {
	cfg := Config{APIBaseURL: "http://localhost:3000", Timeout: 30 * time.Second}
	if home, err := os.UserHomeDir(); err == nil {
		_ = readFile(filepath.Join(home, ".orderly.toml"), &cfg)
	}
	if v := os.Getenv("ORDERLY_API_URL"); v != "" {
		cfg.APIBaseURL = v
	}
	if v := os.Getenv("ORDERLY_API_KEY"); v != "" {
		cfg.APIKey = v
	}
	if cfg.APIKey == "" {
		return cfg, errors.New("no API key: set ORDERLY_API_KEY or api_key in ~/.orderly.toml")
	}
	return cfg, nil
}

// readFile parses the two keys the CLI understands from a minimal `key = "value"` file.
func readFile(path string, cfg *Config) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	for _, line := range strings.Split(string(data), "\n") {
		key, value, ok := strings.Cut(line, "=")
		if !ok {
			continue
		}
		value = strings.Trim(strings.TrimSpace(value), `"`)
		switch strings.TrimSpace(key) {
		case "api_url":
			cfg.APIBaseURL = value
		case "api_key":
			cfg.APIKey = value
		}
	}
	return nil
}

// ParseSince turns "30d", "12h" or "90m" into a duration; days are not supported by
// time.ParseDuration, hence this helper.
func ParseSince(s string) (time.Duration, error) {
	if strings.HasSuffix(s, "d") {
		d, err := time.ParseDuration(strings.TrimSuffix(s, "d") + "h")
		return d * 24, err
	}
	return time.ParseDuration(s)
}
