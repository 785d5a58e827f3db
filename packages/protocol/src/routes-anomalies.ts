import {
  AnomalyBandRequest,
  AnomalyBandResponse,
  AnomalyModelRequest,
  AnomalyModelResponse,
  AnomalyTrainRequest,
} from './anomalies';
import type { RouteDef } from './routes';

/** Anomaly models of household meters (type 1), for their owners. */
export const anomaliesRoutes = {
  anomalyModel: {
    door: 'read',
    method: 'POST',
    path: '/anomalies/models',
    session: 'cookie',
    tag: 'anomalies',
    summary:
      "A household meter's anomaly model, what it was trained on, and its recent anomalies; owners only",
    body: AnomalyModelRequest,
    response: AnomalyModelResponse,
  },
  anomalyTrain: {
    door: 'write',
    method: 'POST',
    path: '/anomalies/models',
    session: 'cookie',
    tag: 'anomalies',
    summary: 'Trains the model on the last weeks of hourly consumption (at least 3 weeks); owners only',
    body: AnomalyTrainRequest,
    response: AnomalyModelResponse,
  },
  anomalyBand: {
    door: 'read',
    method: 'POST',
    path: '/anomalies/band',
    session: 'cookie',
    tag: 'anomalies',
    summary: 'The expected hourly consumption band over a range, kWh; empty without a model; owners only',
    body: AnomalyBandRequest,
    response: AnomalyBandResponse,
  },
} as const satisfies Record<string, RouteDef>;
