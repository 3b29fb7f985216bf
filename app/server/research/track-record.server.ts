import type { CallAction, CallExchange } from '~/domain/research-calls'
import type { FollowUpKind } from '~/domain/research-follow-ups'
import {
  callOutcome,
  trackRecordSummary,
  type CallOutcome,
  type TrackRecordFollowUp,
  type TrackRecordSummary,
} from '~/domain/research-track-record'
import { prisma } from '../db.server'

// The track record of a service's calls (docs/research.md, "Track record"), admin only: every
// published call of the service with its published follow-ups, read by one statement (the
// follow-ups aggregated per call over the original_id index), then scored by the pure rules.

type CallRow = {
  id: string
  title: string
  exchange: CallExchange | null
  symbol: string | null
  isin: string | null
  action: CallAction
  entry_low_paise: number
  entry_high_paise: number | null
  targets_paise: number[]
  stop_loss_paise: number | null
  horizon: string | null
  published_at: Date
  follow_ups: {
    kind: FollowUpKind
    targetsPaise: number[]
    stopLossPaise: number | null
    pricePaise: number | null
    publishedAt: string
  }[]
}

export type TrackRecordCall = {
  id: string
  title: string
  exchange: CallExchange | null
  symbol: string | null
  isin: string | null
  action: CallAction
  entryLowPaise: number
  entryHighPaise: number | null
  /** As published; the outcome carries them as last revised. */
  targetsPaise: number[]
  stopLossPaise: number | null
  horizon: string
  publishedAt: Date
} & { result: CallOutcome }

export type ServiceTrackRecord = {
  service: { id: string; name: string }
  /** Newest first by publication. */
  calls: TrackRecordCall[]
  summary: TrackRecordSummary
}

/** The track record of `serviceId`; null when there is no such service. */
export async function serviceTrackRecord(serviceId: string): Promise<ServiceTrackRecord | null> {
  const service = await prisma.service.findUnique({ where: { id: serviceId }, select: { id: true, name: true } })
  if (!service) return null
  const rows = await prisma.$queryRaw<CallRow[]>`
    SELECT c.id::text, c.title, c.exchange::text AS exchange, c.symbol, c.isin, c.call_action::text AS action,
           c.entry_low_paise, c.entry_high_paise, c.targets_paise, c.stop_loss_paise, c.horizon, c.published_at,
           COALESCE((
             SELECT json_agg(json_build_object(
                      'kind', f.follow_up_kind, 'targetsPaise', f.targets_paise, 'stopLossPaise', f.stop_loss_paise,
                      'pricePaise', f.price_paise, 'publishedAt', f.published_at)
                    ORDER BY f.published_at, f.id)
             FROM research_items f
             WHERE f.original_id = c.id AND f.kind = 'FOLLOW_UP' AND f.status = 'PUBLISHED'
           ), '[]'::json) AS follow_ups
    FROM research_item_services s
    JOIN research_items c ON c.id = s.item_id
    WHERE s.service_id = ${serviceId}::uuid AND c.kind = 'CALL' AND c.status = 'PUBLISHED'
      AND c.call_action IS NOT NULL AND c.entry_low_paise IS NOT NULL
    ORDER BY c.published_at DESC, c.id DESC`
  const calls = rows.map((row): TrackRecordCall => {
    const followUps: TrackRecordFollowUp[] = row.follow_ups.map((followUp) => ({
      kind: followUp.kind,
      targetsPaise: followUp.targetsPaise,
      stopLossPaise: followUp.stopLossPaise,
      pricePaise: followUp.pricePaise,
      publishedAt: new Date(followUp.publishedAt),
    }))
    const terms = {
      action: row.action,
      entryLowPaise: row.entry_low_paise,
      entryHighPaise: row.entry_high_paise,
      targetsPaise: row.targets_paise,
      stopLossPaise: row.stop_loss_paise,
    }
    return {
      id: row.id,
      title: row.title,
      exchange: row.exchange,
      symbol: row.symbol,
      isin: row.isin,
      ...terms,
      horizon: row.horizon ?? '',
      publishedAt: row.published_at,
      result: callOutcome(terms, followUps),
    }
  })
  return { service, calls, summary: trackRecordSummary(calls.map((call) => call.result)) }
}
