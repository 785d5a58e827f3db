import type { TestProject } from 'vitest/node';
import { startPortal } from './portal';

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
    adminPassword: string;
  }
}

/** One portal with its simulated demo fleet for the whole run. */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const portal = await startPortal();
  project.provide('baseUrl', portal.baseUrl);
  project.provide('adminPassword', portal.adminPassword);
  return () => portal.stop();
}
