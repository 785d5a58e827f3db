import { PowerQualityWeekRequest, PowerQualityWeekResponse } from './powerQuality';
import type { RouteDef } from './routes';

/** EN 50160 power-quality compliance of precision analyzers (type 3). */
export const powerQualityRoutes = {
  powerQualityWeek: {
    door: 'read',
    method: 'POST',
    path: '/precision/power-quality',
    session: 'cookie',
    tag: 'precision',
    summary:
      "One week's EN 50160 assessment of an analyzer: verdict per criterion, share achieved, worst intervals, coverage",
    body: PowerQualityWeekRequest,
    response: PowerQualityWeekResponse,
  },
} as const satisfies Record<string, RouteDef>;
