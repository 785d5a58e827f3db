import { describe, expect, it } from 'vitest';
import { en } from '../../../i18n/en';

describe('meter texts', () => {
  it('keeps the seed texts exactly in English', () => {
    expect(en.meters.update_success).toBe('Database successfully updated');
    expect(en.meters.update_failed).toBe('Failed database udate');
    expect(en.meters.device_offline).toBe('Device is offline');
    expect(en.meters.no_tests).toBe('No stored load points');
    expect(en.meters.file_not_supported).toBe('file format not supported');
    expect(en.meters.file_too_large).toBe('file too large');
    expect(en.meters.add_meter).toBe('ADD Meter');
    expect(en.meters.load_from_device).toBe('Load from device');
    expect(en.meters.send_to_device).toBe('Send to device');
    expect(en.meters.meter_error).toBe('Meter error');
    expect(en.meters.maximum_demand).toBe('Maximum Demand');
    expect(en.meters.error_title).toBe('error');
  });
});
