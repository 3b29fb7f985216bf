import { env, type Env } from '../env.server'
import { recordOutboxMessage } from './outbox.server'
import { getErrorMessage } from '~/domain/error-message'

export type OtpSms = { to: string; code: string; text: string }

export class SmsDeliveryError extends Error {
  override name = 'SmsDeliveryError'
  constructor(
    message: string,
    /** A retry may succeed (network failure, 429, 5xx); a 4xx will fail the same way again. */
    readonly retryable: boolean,
  ) {
    super(message)
  }
}

/** A notice (a complaint's reference, an answer): no code, just text. */
/**
 * `userId` as for an e-mail (mail.server.ts): dropped once that account is closed. `template`: the
 * DLT template it goes by, when not the general notice one (each kind of message is registered apart).
 */
export type NoticeSms = { to: string; text: string; userId?: string; template?: 'renewal-reminder' | 'research' }

export type SmsProvider = {
  name: string
  sendOtp: (sms: OtpSms) => Promise<void>
  /** Answers the provider's message id when it gives one. */
  sendNotice: (sms: NoticeSms) => Promise<string | void>
}

const outboxSms: SmsProvider = {
  name: 'dev outbox',
  sendOtp: async (sms) => {
    await recordOutboxMessage({ channel: 'sms', recipient: sms.to, body: sms.text })
  },
  sendNotice: (sms) => recordOutboxMessage({ channel: 'sms', recipient: sms.to, body: sms.text }),
}

/**
 * MSG91's OTP flow API: the text lives in a DLT-registered template on MSG91's side, with the code
 * as its `otp` variable. Numbers go without the leading "+".
 */
export function msg91Sms({
  authKey,
  templateId,
  noticeTemplateId,
  renewalTemplateId,
  researchTemplateId,
  baseUrl,
}: {
  authKey: string
  templateId: string
  /** The notice template, with the whole text as its `text` variable; without it notices are refused (logged). */
  noticeTemplateId?: string
  /** The renewal reminders' template, `text` likewise; without it reminders go by e-mail only (renewalSmsEnabled). */
  renewalTemplateId?: string
  /** Research notices' template, `text` likewise; without it research goes by other channels (researchSmsEnabled). */
  researchTemplateId?: string
  baseUrl: string
}): SmsProvider {
  async function sendFlow(template: string, recipient: Record<string, string>): Promise<string | void> {
    let response: Response
    try {
      response = await fetch(new URL('/api/v5/flow', baseUrl), {
        method: 'POST',
        headers: { authkey: authKey, 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify({ template_id: template, short_url: '0', recipients: [recipient] }),
        signal: AbortSignal.timeout(10_000),
      })
    } catch (error) {
      throw new SmsDeliveryError(`MSG91 could not be reached: ${getErrorMessage(error)}`, true)
    }
    const body = await response.text()
    if (!response.ok) {
      throw new SmsDeliveryError(
        `MSG91 answered ${response.status}: ${body.slice(0, 200)}`,
        response.status === 429 || response.status >= 500,
      )
    }
    // MSG91 reports some failures with 200 and {"type":"error"}.
    if (/"type"\s*:\s*"error"/.test(body))
      throw new SmsDeliveryError(`MSG91 refused the message: ${body.slice(0, 200)}`, false)
    return /"message"\s*:\s*"([\w-]{1,100})"/.exec(body)?.[1]
  }
  return {
    name: 'MSG91',
    sendOtp: async (sms) => {
      await sendFlow(templateId, { mobiles: sms.to.slice(1), otp: sms.code })
    },
    async sendNotice(sms) {
      if (sms.template === 'renewal-reminder') {
        if (!renewalTemplateId)
          throw new SmsDeliveryError(
            'MSG91_RENEWAL_TEMPLATE_ID is not set: renewal reminders are not sent by SMS',
            false,
          )
        return sendFlow(renewalTemplateId, { mobiles: sms.to.slice(1), text: sms.text })
      }
      if (sms.template === 'research') {
        if (!researchTemplateId)
          throw new SmsDeliveryError('MSG91_RESEARCH_TEMPLATE_ID is not set: research is not sent by SMS', false)
        return sendFlow(researchTemplateId, { mobiles: sms.to.slice(1), text: sms.text })
      }
      if (!noticeTemplateId)
        throw new SmsDeliveryError('MSG91_NOTICE_TEMPLATE_ID is not set: notices are not sent by SMS', false)
      await sendFlow(noticeTemplateId, { mobiles: sms.to.slice(1), text: sms.text })
    },
  }
}

export type SmsSettings = Pick<Env, 'MSG91_AUTH_KEY' | 'MSG91_TEMPLATE_ID' | 'MSG91_BASE_URL'> &
  Partial<Pick<Env, 'MSG91_NOTICE_TEMPLATE_ID' | 'MSG91_RENEWAL_TEMPLATE_ID' | 'MSG91_RESEARCH_TEMPLATE_ID'>>

/** The real provider when configured (always in a deployment: env validation requires it), else the dev outbox. */
export function smsProvider(settings: SmsSettings = env): SmsProvider {
  if (settings.MSG91_AUTH_KEY && settings.MSG91_TEMPLATE_ID) {
    return msg91Sms({
      authKey: settings.MSG91_AUTH_KEY,
      templateId: settings.MSG91_TEMPLATE_ID,
      noticeTemplateId: settings.MSG91_NOTICE_TEMPLATE_ID,
      renewalTemplateId: settings.MSG91_RENEWAL_TEMPLATE_ID,
      researchTemplateId: settings.MSG91_RESEARCH_TEMPLATE_ID,
      baseUrl: settings.MSG91_BASE_URL,
    })
  }
  return outboxSms
}

/**
 * Whether renewal reminders go by SMS: always through the dev outbox; through MSG91 only with a DLT
 * template registered for them (MSG91_RENEWAL_TEMPLATE_ID), else by e-mail only (said at start).
 */
export function renewalSmsEnabled(settings: SmsSettings = env): boolean {
  return smsProvider(settings) === outboxSms || Boolean(settings.MSG91_RENEWAL_TEMPLATE_ID)
}

/**
 * Whether research goes by SMS: always through the dev outbox; through MSG91 only with a DLT template
 * registered for it (MSG91_RESEARCH_TEMPLATE_ID). Without it publishing queues no SMS rows (said at start).
 */
export function researchSmsEnabled(settings: SmsSettings = env): boolean {
  return smsProvider(settings) === outboxSms || Boolean(settings.MSG91_RESEARCH_TEMPLATE_ID)
}
