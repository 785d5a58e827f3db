// The OK envelope of a route's answer, built in one place for every handler.

/** The OK answer carrying what a service call resolved to. */
export async function ok<T>(data: Promise<T>): Promise<{ status: 'OK'; data: T }> {
  return { status: 'OK', data: await data };
}

/** The OK answer of a call whose answer has no data, once its work is done. */
export async function okAfter(work: Promise<unknown>): Promise<{ status: 'OK' }> {
  await work;
  return { status: 'OK' };
}
