// Not in regulatory.ts: that module is the footer's, on every page, and the ladder needs rules.ts,
// whose figures come from domain modules that carry zod.
import { SCORES_URL, SMART_ODR_URL } from './regulatory'
import { GRIEVANCE_RESOLUTION_DAYS } from './rules'

/**
 * What every acknowledgement of and answer to a complaint ends with, wherever the store tells the
 * complainant (e-mail, SMS, /complaints/new once filed, /complaints): our 21 days, then SCORES, then
 * SMART ODR, as the grievance page and the MITC set them out.
 */
export const COMPLAINT_ESCALATION_LADDER = `We resolve every complaint within ${GRIEVANCE_RESOLUTION_DAYS} days of receiving it. If we have not resolved yours by then, or you are not satisfied with our answer, you can lodge it with SEBI on SCORES at ${SCORES_URL}; if you are still not satisfied, you can seek conciliation and arbitration online on the SMART ODR portal at ${SMART_ODR_URL}.`
