import { afterEach, describe, expect, it, vi } from 'vitest';
import { resolveWsUrl } from './config';
import { ApiError, NETWORK_ERROR_CODE, call, isDataNotFound } from './http';

function respond(status: number, body: unknown) {
  return vi.fn(() => Promise.resolve(new Response(JSON.stringify(body), { status })));
}

describe('api calls', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('posts JSON to the read base with credentials and returns the envelope', async () => {
    const fetchMock = respond(200, { status: 'OK', data: { MRK: 1, RK: 2 } });
    vi.stubGlobal('fetch', fetchMock);
    const res = await call<{ MRK: number }>('read', '/devices/details', { token: 't' });
    expect(res.data.MRK).toBe(1);
    const [url, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/api/read/devices/details');
    expect(init.method).toBe('POST');
    expect(init.credentials).toBe('include');
    expect(JSON.parse(init.body as string)).toEqual({ token: 't' });
  });

  it('sends DELETE to the write base when asked', async () => {
    const fetchMock = respond(200, { status: 'OK', data: null });
    vi.stubGlobal('fetch', fetchMock);
    await call('write', '/assign', { token: 't', login: 'u' }, { method: 'DELETE' });
    const [url, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/api/write/assign');
    expect(init.method).toBe('DELETE');
  });

  it('turns the error envelope into an ApiError with the seed code', async () => {
    vi.stubGlobal('fetch', respond(404, { status: 'ERROR', code: 610, message: 'no data' }));
    const err = await call('read', '/profile', {}).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).code).toBe(610);
    expect(isDataNotFound(err)).toBe(true);
  });

  it('reports an unreachable server or a foreign answer with code 0', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(() => Promise.reject(new TypeError('Failed to fetch'))),
    );
    expect(((await call('read', '/x', {}).catch((e: unknown) => e)) as ApiError).code).toBe(
      NETWORK_ERROR_CODE,
    );
    vi.stubGlobal(
      'fetch',
      vi.fn(() => Promise.resolve(new Response('<html>', { status: 502 }))),
    );
    expect(((await call('read', '/x', {}).catch((e: unknown) => e)) as ApiError).code).toBe(
      NETWORK_ERROR_CODE,
    );
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
