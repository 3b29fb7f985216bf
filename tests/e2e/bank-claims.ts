import { DEMO_SERVICES } from '../../prisma/seed'
import { withE2eDatabase } from './database'

/** The demo service the admin specs' bank-transfer claims are for. */
export const CLAIMED_SERVICE = DEMO_SERVICES[0]

/** A bank-transfer claim for CLAIMED_SERVICE, as "I'll Pay & Send Screenshot" records it (admin-payments.spec.ts makes one through the pages). */
export async function claimBankTransfer(phone: string): Promise<void> {
  await withE2eDatabase(async (db) => {
    const { rows } = await db.query<{ id: string; name: string; price_paise: number; duration_days: number }>(
      'SELECT id, name, price_paise, duration_days FROM services WHERE name = $1',
      [CLAIMED_SERVICE.name],
    )
    const service = rows[0]!
    const cart = [
      {
        serviceId: service.id,
        name: service.name,
        pricePaise: service.price_paise,
        durationDays: service.duration_days,
      },
    ]
    await db.query(
      `INSERT INTO payments (user_id, method, status, amount_paise, currency, cart, expires_at)
       SELECT id, 'MANUAL', 'PENDING_VERIFICATION', $2, 'INR', $3::jsonb, now() + interval '7 days' FROM users WHERE phone = $1`,
      [phone, service.price_paise, JSON.stringify(cart)],
    )
  })
}
