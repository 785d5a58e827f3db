/**
 * Zod compiles fast validators with `new Function` where it may. The portal's Content-Security-
 * Policy forbids eval, so Zod is told to validate without compiling (the same checks, interpreted)
 * and never tries: a try would be reported as a policy violation. Zod reads this shared object.
 */
const shared = globalThis as { __zod_globalConfig?: { jitless?: boolean } };
(shared.__zod_globalConfig ??= {}).jitless = true;
