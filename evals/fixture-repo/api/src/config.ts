/**
 * Loads the API configuration from environment variables. Missing required variables stop
 * the process at startup instead of failing on the first request.
 */
export interface AppConfig {
  port: number;
  databaseUrl: string;
  redisUrl: string;
  jwtSecret: string;
  /** Previous signing secret, accepted during a rotation window. */
  jwtSecretPrevious?: string;
  rateLimitBurst: number;
  rateLimitRefillPerSecond: number;
}

function required(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`Environment variable ${name} is required`);
  return value;
}

export function loadConfig(): AppConfig {
  return {
    port: Number(process.env.PORT ?? 3000),
    databaseUrl: required("DATABASE_URL"),
    redisUrl: required("REDIS_URL"),
    jwtSecret: required("JWT_SECRET"),
    jwtSecretPrevious: process.env.JWT_SECRET_PREVIOUS,
    rateLimitBurst: Number(process.env.ORDERLY_RATE_LIMIT_BURST ?? 60),
    rateLimitRefillPerSecond: Number(process.env.ORDERLY_RATE_LIMIT_REFILL_PER_SECOND ?? 10),
  };
}
