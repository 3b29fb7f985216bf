// What the admin's research forms post in the integration tests, and how their answers are read.

/** Every disclosure the research form asks, answered "no conflict". */
export const DISCLOSURE_ANSWERS = {
  financialInterest: 'no',
  ownershipOnePercent: 'no',
  compensationPastYear: 'no',
  aiToolsUsed: 'no',
  otherConflict: 'None',
}

/** /admin/research/new's call form: a buy of HDFC Bank on NSE at 1,500 (target 1,600, stop-loss 1,450). */
export const callForm = (serviceId: string, overrides: Record<string, string> = {}) => ({
  kind: 'call',
  title: 'Buy HDFC Bank',
  body: 'Deposits grow faster than peers.',
  serviceIds: serviceId,
  ...DISCLOSURE_ANSWERS,
  exchange: 'NSE',
  symbol: 'HDFCBANK',
  action: 'BUY',
  entryLow: '1500',
  targets: '1600',
  stopLoss: '1450',
  horizon: '3 months',
  ...overrides,
})

/** The item id a saved draft's redirect names (`/admin/research/:id`). */
export const idFrom = (response: Response) => response.headers.get('Location')!.split('/').pop()!

/** The status of the response a loader or action threw (`data(...)` or a Response). */
export async function thrownStatus(promise: Promise<unknown>): Promise<number> {
  try {
    await promise
  } catch (error) {
    if (error instanceof Response) return error.status
    if (error && typeof error === 'object' && 'init' in error) return (error as { init: ResponseInit }).init.status!
    throw error
  }
  throw new Error('expected a thrown response')
}
