import { describe, expect, it } from 'vitest';
import {
  CLOUD_DESTINATION,
  NEW_EMAIL_DESTINATION,
  allDestinations,
  destinationKey,
  freeDestinations,
  sourcesFor,
  toPair,
  type Pair,
} from './notificationRules';

const spaces = [
  { ID: 'space-a', title: 'Operations' },
  { ID: 'space-b', title: 'Night shift' },
];

describe('notification sources', () => {
  it.each([
    [1, [1, 2, 3]],
    [2, [1, 4]],
    [3, [1]],
    [6, [1]],
  ])('offers device type %i the sources %j', (type, ids) => {
    expect(sourcesFor(type)).toEqual(ids);
  });
});

describe('free destinations', () => {
  const all = allDestinations(spaces);
  const pair = (ID: number, notifyType: number, dest: (typeof all)[number]): Pair => ({
    ID,
    notifyType,
    destination: dest,
  });

  it('lists the cloud first, then every space', () => {
    expect(all.map(destinationKey)).toEqual(['1:1', '2:space-a', '2:space-b']);
  });

  it('offers only the cloud without Webex', () => {
    expect(freeDestinations(1, allDestinations([]), [])).toEqual([CLOUD_DESTINATION]);
  });

  it('leaves out destinations already paired with the same source', () => {
    const pairs = [pair(1, 1, all[0]!), pair(2, 1, all[2]!)];
    expect(freeDestinations(1, all, pairs).map(destinationKey)).toEqual(['2:space-a']);
  });

  it('keeps destinations paired only with another source', () => {
    const pairs = [pair(1, 2, all[0]!), pair(2, 2, all[1]!)];
    expect(freeDestinations(1, all, pairs)).toEqual(all);
  });

  it('offers e-mail last when the installation sends e-mail, and again after an address is paired', () => {
    const withEmail = allDestinations(spaces, true);
    expect(withEmail.map(destinationKey)).toEqual(['1:1', '2:space-a', '2:space-b', '3:']);
    const emailPair = pair(3, 1, { ID_dest: 3, ID: 'ops@example.com' });
    expect(freeDestinations(1, withEmail, [emailPair])).toContainEqual(NEW_EMAIL_DESTINATION);
  });

  it('offers nothing once every destination is paired', () => {
    const pairs = all.map((d, i) => pair(i, 4, d));
    expect(freeDestinations(4, all, pairs)).toEqual([]);
  });
});

describe('server rows', () => {
  it('reads a cloud row', () => {
    expect(toPair({ ID: 7, ID_notifyType: 1, ID_notifyDestType: 1, webex_space: null }, spaces)).toEqual({
      ID: 7,
      notifyType: 1,
      destination: CLOUD_DESTINATION,
    });
  });

  it('reads an e-mail row with its address', () => {
    expect(
      toPair(
        { ID: 10, ID_notifyType: 1, ID_notifyDestType: 3, webex_space: null, email: 'ops@example.com' },
        spaces,
      ).destination,
    ).toEqual({ ID_dest: 3, ID: 'ops@example.com' });
  });

  it('names a Webex row by its space title, or its id when the space is gone', () => {
    expect(
      toPair({ ID: 8, ID_notifyType: 2, ID_notifyDestType: 2, webex_space: 'space-b' }, spaces).destination
        .title,
    ).toBe('Night shift');
    expect(
      toPair({ ID: 9, ID_notifyType: 2, ID_notifyDestType: 2, webex_space: 'gone' }, spaces).destination
        .title,
    ).toBe('gone');
  });
});
