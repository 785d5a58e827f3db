import { describe, expect, it } from 'vitest';
import { ApplianceName, AppliancesRequest, teachOutcome } from './appliances';
import { CommandReply, CommandRequest } from './mqtt-commands';

describe('appliance teaching', () => {
  it.each([
    [0, 'NO_EDGE'],
    [1, 'LESS_THAN_2'],
    [2, 'LEARNED'],
    [3, 'MORE_THAN_2'],
    [8, 'MORE_THAN_2'],
  ] as const)('judges %i edges as %s', (edges, outcome) => {
    expect(teachOutcome(edges)).toBe(outcome);
  });

  it.each([
    ['Kettle', true],
    ['  Kettle  ', true],
    ['', false],
    ['   ', false],
    ['x'.repeat(24), true],
    ['x'.repeat(25), false],
    ['a\u0000b', false],
    ['Práčka 2', true],
  ])('takes %j as an appliance name: %s', (name, ok) => {
    expect(ApplianceName.safeParse(name).success).toBe(ok);
  });

  it('takes a range of at most 367 days that ends after it starts', () => {
    const day = 86_400_000;
    expect(AppliancesRequest.safeParse({ token: 'abcdefghij|1', from: 0, to: day }).success).toBe(true);
    expect(AppliancesRequest.safeParse({ token: 'abcdefghij|1', from: day, to: day }).success).toBe(false);
    expect(AppliancesRequest.safeParse({ token: 'abcdefghij|1', from: 0, to: 368 * day }).success).toBe(
      false,
    );
  });

  it('carries the NILM commands and the edges a meter reports on the device link', () => {
    expect(CommandRequest.parse({ id: '1', cmd: 'NILM_TEACH_START', name: 'Kettle' })).toMatchObject({
      cmd: 'NILM_TEACH_START',
    });
    expect(
      CommandRequest.safeParse({ id: '1', cmd: 'NILM_FORGET', name: 'Kettle' }).success,
      'imprintOnly is required',
    ).toBe(false);
    const reply = CommandReply.parse({
      id: '1',
      cmd: 'NILM_TEACH_STOP',
      ok: true,
      result: {
        name: 'Kettle',
        edges: [
          { phase: 'L1', deltaW: 2000 },
          { phase: 'L1', deltaW: -2000 },
        ],
      },
    });
    expect(reply.ok && reply.cmd === 'NILM_TEACH_STOP' && reply.result.edges).toHaveLength(2);
    expect(
      CommandReply.safeParse({
        id: '1',
        cmd: 'NILM_TEACH_STOP',
        ok: true,
        result: { name: 'Kettle', edges: [{ phase: 'L4', deltaW: 1 }] },
      }).success,
    ).toBe(false);
    expect(
      CommandReply.parse({ id: '1', cmd: 'NILM_SETTINGS', ok: false, error: 'NOT_SUPPORTED' }),
    ).toMatchObject({
      ok: false,
    });
  });
});
