import type { AxisRule } from '../../charts/options';
import type { Quantity } from './views';

/** An aggregate over the phases: the total (SUM) or the mean (AVG). */
export type Aggregate = 'SUM' | 'AVG';

/**
 * The aggregates that mean something for a quantity: powers and energies add up over the phases,
 * voltages, currents and the frequency are averaged; a sum of three voltages (690 V) or an
 * average of power factors or distortion factors describes nothing on the line.
 */
export function aggregatesFor(quantity: Quantity): readonly Aggregate[] {
  switch (quantity) {
    case 'P':
    case 'Q':
    case 'S':
    case 'E_I':
    case 'E_E':
    case 'Q_E':
    case 'S_E':
      return ['SUM'];
    case 'U':
    case 'I':
    case 'F':
      return ['AVG'];
    case 'PF':
    case 'DF_U':
    case 'DF_I':
      return [];
  }
}

/**
 * Value axis rules per quantity: the smallest span worth showing, so measurement noise is not
 * stretched over the whole height (a power factor of 0.8925 to 0.8929 stays a flat line).
 */
export function axisRuleFor(quantity: Quantity): AxisRule | undefined {
  switch (quantity) {
    case 'PF':
      return { minSpan: 0.1, floor: -1, ceiling: 1 };
    case 'F':
      return { minSpan: 1, floor: 0 };
    case 'U':
      return { minSpan: 10, floor: 0 };
    case 'DF_U':
    case 'DF_I':
      return { minSpan: 1, floor: 0 };
    case 'I':
    case 'P':
    case 'Q':
    case 'S':
    case 'E_I':
    case 'E_E':
    case 'Q_E':
    case 'S_E':
      return undefined;
  }
}
