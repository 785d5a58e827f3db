import { afterEach, describe, expect, it, vi } from 'vitest';
import { resolveWsUrl } from './config';
import { ApiError, NETWORK_ERROR_CODE, call, isDataNotFound, isUnreadable, upload } from './http';

function respond(status: number, body: unknown) {
  return vi.fn(() => Promise.resolve(new Response(JSON.stringify(body), { status })));
}

describe('api calls', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('posts JSON to the door and path of the table entry with credentials and returns the answer', async () => {
    const fetchMock = respond(200, { status: 'OK', data: { MRK: 1, RK: 2 } });
    vi.stubGlobal('fetch', fetchMock);
    const res = await call('detailsRead', { token: 't' });
    expect(res.data.MRK).toBe(1);
    const [url, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/api/read/devices/details');
    expect(init.method).toBe('POST');
    expect(init.credentials).toBe('include');
    expect(JSON.parse(init.body as string)).toEqual({ token: 't' });
  });

  it('sends DELETE to the write base for a route the table marks so', async () => {
    const fetchMock = respond(200, { status: 'OK' });
    vi.stubGlobal('fetch', fetchMock);
    await call('unassignOwn', { token: 't', login: 'u' });
    const [url, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/api/write/assign');
    expect(init.method).toBe('DELETE');
  });

  it('refuses at compile time a body that does not match the request schema', async () => {
    vi.stubGlobal('fetch', respond(200, { status: 'OK', data: { MRK: 1, RK: 2 } }));
    // @ts-expect-error -- MRK is a number of kW, not text
    await call('detailsSave', { token: 't', MRK: '10', RK: 8 });
    // @ts-expect-error -- the route has no field "mac"
    await call('detailsRead', { mac: '02-4D-50-00-00-01' });
  });

  it('turns an OK answer that does not match the response schema into code 0 with its HTTP status', async () => {
    vi.stubGlobal('fetch', respond(200, { status: 'OK', data: { MRK: 'ten' } }));
    const err = await call('detailsRead', { token: 't' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).code).toBe(NETWORK_ERROR_CODE);
    expect((err as ApiError).httpStatus).toBe(200);
    expect(isUnreadable(err)).toBe(true);
  });

  it('turns the error envelope into an ApiError with the seed code', async () => {
    vi.stubGlobal('fetch', respond(404, { status: 'ERROR', code: 610, message: 'no data' }));
    const err = await call('profile', { token: 't', data: 'U', from: 0, to: 1 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).code).toBe(610);
    expect(isDataNotFound(err)).toBe(true);
    expect(isUnreadable(err)).toBe(false);
  });

  it('reports an unreachable server or a foreign answer with code 0', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(() => Promise.reject(new TypeError('Failed to fetch'))),
    );
    const unreachable = (await call('logout', { token: 't' }).catch((e: unknown) => e)) as ApiError;
    expect(unreachable.code).toBe(NETWORK_ERROR_CODE);
    expect(unreachable.httpStatus).toBe(0);
    vi.stubGlobal(
      'fetch',
      vi.fn(() => Promise.resolve(new Response('<html>', { status: 502 }))),
    );
    expect(((await call('logout', { token: 't' }).catch((e: unknown) => e)) as ApiError).code).toBe(
      NETWORK_ERROR_CODE,
    );
  });

  it('uploads multipart form data to the table route and reads its answer', async () => {
    const fetchMock = respond(200, { status: 'OK', data: { ID_image: [4, 5] } });
    vi.stubGlobal('fetch', fetchMock);
    const form = new FormData();
    form.append('device_token', 't');
    const res = await upload('meterImagesUpload', form);
    expect(res.data.ID_image).toEqual([4, 5]);
    const [url, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/api/write/applied-precision/images');
    expect(init.body).toBe(form);
  });
});

describe('websocket address', () => {
  it.each([
    ['/ws', 'http:', 'ws://portal.local:8080/ws'],
    ['/ws', 'https:', 'wss://portal.local:8080/ws'],
    ['wss://live.example.com/ws', 'http:', 'wss://live.example.com/ws'],
    ['https://live.example.com/ws', 'http:', 'wss://live.example.com/ws'],
  ])('%s on %s is %s', (wsUrl, protocol, expected) => {
    expect(resolveWsUrl(wsUrl, { protocol, host: 'portal.local:8080' })).toBe(expected);
  });
});
