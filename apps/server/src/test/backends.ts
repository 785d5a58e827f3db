// Suites that need a backend the environment may lack (PostgreSQL, an external Mosquitto) ask
// here. Absent, the suite is skipped with a warning nobody can miss; under CI, where every backend
// must be provided, the suite fails instead of skipping.

/** True when every named environment variable is set; otherwise warns loudly, or throws under CI. */
export function backendAvailable(suite: string, ...envVars: string[]): boolean {
  const missing = envVars.filter((v) => !process.env[v]);
  if (missing.length === 0) return true;
  const msg = `${suite}: ${missing.join(' and ')} not set, so this suite is SKIPPED and its behaviour NOT tested`;
  if (process.env.CI) throw new Error(`${msg} (CI must provide it)`);
  console.warn(`\n${'!'.repeat(100)}\n!!! ${msg}\n${'!'.repeat(100)}\n`);
  return false;
}
