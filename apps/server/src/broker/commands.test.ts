import { describe, expect, it } from 'vitest';
import { CommandRequest } from '@meterportal/protocol';
import { DeviceNotRespondingError, createDeviceCommands } from './commands';

const MAC = 'EM-70-B3-D5-02-00-01';

function setup(timeoutMs = 200) {
  const sent: { topic: string; payload: string }[] = [];
  const commands = createDeviceCommands({ timeoutMs });
  commands.connect({
    publish: (topic, payload) => (sent.push({ topic, payload }), Promise.resolve()),
    close: () => Promise.resolve(),
  });
  const reply = (mac: string, id: string) =>
    commands.onDeviceMessage({
      kind: 'cmd/res',
      mac,
      payload: { id, cmd: 'RELAY', ok: true, result: { state: 'OPEN' } },
    });
  return { sent, commands, reply };
}

describe('device commands', () => {
  it('publishes a request with a correlation id and resolves with the matching reply', async () => {
    const { sent, commands, reply } = setup();
    const p = commands.send(MAC, { cmd: 'RELAY', state: 'OPEN' });
    await Promise.resolve();
    expect(sent[0]!.topic).toBe(`meters/${MAC}/cmd/req`);
    const req = CommandRequest.parse(JSON.parse(sent[0]!.payload));
    reply('EM-70-B3-D5-02-00-99', req.id); // another device cannot answer for it
    reply(MAC, 'other-id');
    expect(commands.pending()).toBe(1);
    reply(MAC, req.id);
    await expect(p).resolves.toMatchObject({ ok: true, result: { state: 'OPEN' } });
    expect(commands.pending()).toBe(0);
  });

  it('fails with 604 when no reply comes in time, and stops waiting when aborted', async () => {
    const { commands } = setup(50);
    await expect(commands.send(MAC, { cmd: 'WAVEFORM' })).rejects.toBeInstanceOf(DeviceNotRespondingError);
    await expect(commands.send(MAC, { cmd: 'WAVEFORM' })).rejects.toMatchObject({ code: 604 });
    const ac = new AbortController();
    const p = commands.send(MAC, { cmd: 'HARMONICS' }, ac.signal);
    ac.abort(new Error('client left'));
    await expect(p).rejects.toThrow('client left');
    expect(commands.pending()).toBe(0);
  });
});
