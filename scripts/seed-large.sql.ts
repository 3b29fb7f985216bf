// The SQL of `npm run db:seed:large` (scripts/seed-large.ts): each step one INSERT ... SELECT over
// generate_series, every value derived from md5(seed || a label || the row number), so the same
// seed, sizes and end date give the same rows. Numbers are checked integers and the date an ISO
// string before they are put in the text. Payments and the rows that follow one (subscriptions,
// refunds, ledger entries) go in in time order, as a store inserts them: the table's physical order
// then follows created_at, as the payments export's plan counts on (index scan, no sort).
import { createHash } from 'node:crypto'
import { CONSENT_DOCUMENT_KINDS, type ConsentDocumentKind } from '../app/domain/consent'

export type LargeSeedOptions = {
  customers: number
  payments: number
  seed: number
  /** The end of the 5 years the rows are spread over (the day the set is "taken"). */
  until: Date
  /**
   * The version and text hash of each document the complete customers accepted; scripts/seed-large.ts
   * gives the store's current ones (or the first start of a store on the set would announce its terms
   * as new to every customer, tens of thousands of e-mails in the middle of whatever is measured).
   */
  accepted?: Record<ConsentDocumentKind, AcceptedDocument>
  /** The terms version the store publishes, recorded as published before the first customer signed up. */
  terms?: AcceptedDocument & { text: string }
  /** The store's GST registration: tax invoices with their GST when set, receipts without when not (as the ledger writes them). */
  gst?: { gstin: string; rateBasisPoints: number } | null
}

export type AcceptedDocument = { version: string; textSha256: string }

/** Placeholders for a seed made without the store's documents (the tests' seeds). */
const PLACEHOLDER_DOCUMENTS = Object.fromEntries(
  CONSENT_DOCUMENT_KINDS.map((kind) => [
    kind,
    { version: 'seed-v1', textSha256: createHash('md5').update(`seed ${kind}`).digest('hex') },
  ]),
) as Record<ConsentDocumentKind, AcceptedDocument>

/** Phones of large-seed customers start with this: +9155 and 8 digits (the admin is +915500000000). */
export const LARGE_SEED_PHONE_PREFIX = '+9155'
export const LARGE_SEED_MAX_CUSTOMERS = 99_999_999

/** The catalogue the payments buy from (created when missing, matched by name). */
export const LARGE_SEED_SERVICES = [
  { name: 'Seed: Equity Research', pricePaise: 299_900, durationDays: 30 },
  { name: 'Seed: Options Strategies', pricePaise: 799_900, durationDays: 90 },
  { name: 'Seed: Swing Ideas', pricePaise: 149_900, durationDays: 30 },
  { name: 'Seed: Annual Portfolio Review', pricePaise: 1_999_900, durationDays: 365 },
] as const

/** Months of research the large seed publishes, one report a month for each 30-day service. */
export const LARGE_SEED_RESEARCH_MONTHS = 60

export type SeedStep = { label: string; sql: string }

/** The tables the steps fill (their secondary indexes are built after the rows are in). */
const SEEDED_TABLES = [
  'users',
  'acceptances',
  'otp_challenges',
  'sessions',
  'payments',
  'subscriptions',
  'refunds',
  'research_items',
  'research_roll',
  'research_deliveries',
  'ledger_entries',
  'document_sequences',
  'audit_logs',
] as const

const FIRST_NAMES = [
  'Aarav',
  'Vivaan',
  'Aditya',
  'Vihaan',
  'Arjun',
  'Sai',
  'Reyansh',
  'Ananya',
  'Diya',
  'Saanvi',
  'Aadhya',
  'Kavya',
  'Priya',
  'Rohan',
  'Rahul',
  'Sneha',
  'Neha',
  'Vikram',
  'Meera',
  'Ishaan',
  'Karthik',
  'Lakshmi',
  'Suresh',
  'Deepa',
  'Amit',
  'Pooja',
  'Rajesh',
  'Sunita',
  'Manoj',
  'Farhan',
  'Zoya',
  'Gurpreet',
]
const LAST_NAMES = [
  'Sharma',
  'Verma',
  'Iyer',
  'Nair',
  'Reddy',
  'Patel',
  'Shah',
  'Mehta',
  'Gupta',
  'Singh',
  'Kumar',
  'Das',
  'Banerjee',
  'Mukherjee',
  'Rao',
  'Pillai',
  'Menon',
  'Joshi',
  'Kulkarni',
  'Desai',
  'Khan',
  'Fernandes',
  'Chopra',
  'Malhotra',
  'Bhat',
  'Hegde',
  'Naidu',
  'Agarwal',
  'Jain',
  'Saxena',
  'Chatterjee',
  'Ghosh',
]

const quote = (value: string) => `'${value.replace(/'/g, "''")}'`
const sqlArray = (values: readonly string[]) => `ARRAY[${values.map(quote).join(',')}]`

export function largeSeedSteps({
  customers: n,
  payments: m,
  seed,
  until,
  accepted = PLACEHOLDER_DOCUMENTS,
  terms,
  gst = null,
}: LargeSeedOptions): SeedStep[] {
  for (const value of [n, m, seed, gst?.rateBasisPoints ?? 0])
    if (!Number.isSafeInteger(value) || value < 0) throw new RangeError(String(value))
  const s = `'${seed}:'`
  const end = `'${until.toISOString()}'::timestamptz`
  const start = `(${end} - interval '5 years')`
  // A 60-bit non-negative number from md5 of the seed, a label and a row number.
  const h = (label: string, row: string) =>
    `('x' || substr(md5(${s} || '${label}:' || ${row}), 1, 15))::bit(60)::bigint`
  const uuid = (label: string, row: string) => `md5(${s} || '${label}:' || ${row})::uuid`
  const userCreated = (i: string) =>
    `(${start} + (${end} - ${start} - interval '1 day') * ((${i} - 1)::float8 / ${Math.max(n, 1)}))`
  const fyStart = (t: string) => `extract(year FROM (${t} AT TIME ZONE 'Asia/Kolkata') - interval '3 months')::int`
  const fyCode = (fy: string) => `lpad((${fy} % 100)::text, 2, '0') || lpad(((${fy} + 1) % 100)::text, 2, '0')`
  // gstContainedPaise of a positive amount: round(amount x rate / (10000 + rate)), half up.
  const paymentGst = (amount: string) =>
    gst ? `round(${amount}::numeric * ${gst.rateBasisPoints} / ${10_000 + gst.rateBasisPoints})::int` : '0'
  const fyLabel = (fy: string) => `${fy}::text || '-' || lpad(((${fy} + 1) % 100)::text, 2, '0')`
  const services = LARGE_SEED_SERVICES.map(
    (svc, k) => `(${k + 1}, '${svc.name}', ${svc.pricePaise}, ${svc.durationDays})`,
  ).join(', ')

  return [
    {
      // Filling tables and then building their indexes once is several times faster than updating
      // every index on every row; unique indexes stay, as the steps rely on them.
      label: 'set aside secondary indexes',
      sql: `SET LOCAL maintenance_work_mem = '256MB';
        CREATE TEMP TABLE seed_secondary_indexes ON COMMIT DROP AS
          SELECT i.indexrelid::regclass::text AS name, pg_get_indexdef(i.indexrelid) AS definition
          FROM pg_index i JOIN pg_class t ON t.oid = i.indrelid
          WHERE t.relnamespace = 'public'::regnamespace AND t.relname = ANY(${sqlArray(SEEDED_TABLES)})
            AND NOT i.indisunique AND NOT i.indisprimary;
        DO $$ DECLARE r record; BEGIN
          FOR r IN SELECT name FROM seed_secondary_indexes LOOP EXECUTE 'DROP INDEX ' || r.name; END LOOP;
        END $$;`,
    },
    {
      label: 'services',
      sql: `INSERT INTO services (id, name, description, price_paise, duration_days, sort_order, created_at, updated_at, risk_level, delivery)
        SELECT ${uuid('svc', 'k')}, name, ARRAY['Large seed service'], price, days, 100 + k, ${start}, ${start}, 'HIGH', 'Ideas on the website as published'
        FROM (VALUES ${services}) v(k, name, price, days)
        ON CONFLICT (name) DO NOTHING;
        CREATE TEMP TABLE seed_svc ON COMMIT DROP AS
          SELECT v.k, s.id, s.name, s.price_paise AS price, s.duration_days AS days
          FROM (VALUES ${services}) v(k, name, price, days) JOIN services s ON s.name = v.name;`,
    },
    {
      label: 'customers',
      // PANs go in as plaintext with no hash; scripts/seed-large.ts encrypts them next, as a start
      // or npm run db:migrate would (encryptPlaintextPans in app/server/kyc/pan-at-rest.server.ts).
      sql: `INSERT INTO users (id, phone, role, created_at, updated_at)
          VALUES (${uuid('admin', '0')}, '${LARGE_SEED_PHONE_PREFIX}00000000', 'ADMIN', ${start}, ${start});
        INSERT INTO users (id, phone, name, email, date_of_birth, pan_encrypted, pan_card_key, agreement_accepted_at,
                           agreement_version, agreement_text_sha256, agreement_ip, created_at, updated_at)
        SELECT id, phone,
               CASE WHEN kind <= 8 THEN first || ' ' || last END,
               CASE WHEN kind <= 7 THEN lower(first) || '.' || lower(last) || i || '@example.com' END,
               CASE WHEN kind <= 6 THEN date '1950-01-01' + (hv % 18000)::int END,
               CASE WHEN kind <= 6 THEN
                 chr(65 + (q % 26)) || chr(65 + (q / 26 % 26)) || chr(65 + (q / 676 % 26)) || 'P' || left(upper(last), 1)
                 || lpad((i % 10000)::text, 4, '0') || chr(65 + (hv / 7 % 26)::int) END,
               -- A key only: the seed stores no images, so the admin's "PAN card" link finds none.
               CASE WHEN kind <= 6 THEN 'seed/pan-card-' || i || '.png' END,
               CASE WHEN kind <= 6 THEN created + interval '20 minutes' END,
               CASE WHEN kind <= 6 THEN ${quote(accepted.TERMS.version)} END,
               CASE WHEN kind <= 6 THEN ${quote(accepted.TERMS.textSha256)} END,
               CASE WHEN kind <= 6 THEN '10.' || (hv % 250) || '.' || (hv / 250 % 250) || '.' || (hv / 62500 % 250) END,
               created, created + interval '20 minutes'
        FROM (
          SELECT i, ${uuid('user', 'i')} AS id, '${LARGE_SEED_PHONE_PREFIX}' || lpad(i::text, 8, '0') AS phone,
                 ${h('user', 'i')} AS hv, (i % 10) AS kind, i / 10000 AS q,
                 (${sqlArray(FIRST_NAMES)})[1 + (${h('first', 'i')} % ${FIRST_NAMES.length})] AS first,
                 (${sqlArray(LAST_NAMES)})[1 + (${h('last', 'i')} % ${LAST_NAMES.length})] AS last,
                 ${userCreated('i')} + (${h('user', 'i')} % 3600) * interval '1 second' AS created
          FROM generate_series(1, ${n}) i
        ) u;`,
    },
    {
      label: 'terms version',
      // As the store records a version (terms_versions), 15 days before it takes effect.
      sql: terms
        ? `INSERT INTO terms_versions (version, text_sha256, text, published_at, effective_from)
           VALUES (${quote(terms.version)}, ${quote(terms.textSha256)}, ${quote(terms.text)},
                   ${start} - interval '30 days', ${start} - interval '15 days')
           ON CONFLICT (version) DO NOTHING;`
        : 'SELECT 1;',
    },
    {
      label: 'acceptances',
      sql: `INSERT INTO acceptances (id, user_id, kind, version, text_sha256, accepted_at, ip, user_agent, channel)
        SELECT ${uuid('acc', 'u.id::text || doc.kind::text')}, u.id, doc.kind, d.version, d.text_sha256,
               u.agreement_accepted_at, u.agreement_ip, 'Mozilla/5.0 (Linux; Android 14) seed',
               CASE WHEN ${h('channel', 'u.phone')} % 10 = 0 THEN 'API' ELSE 'PAGE' END::"AcceptanceChannel"
        FROM users u CROSS JOIN unnest(enum_range(NULL::"ConsentDocumentKind")) doc(kind)
        JOIN (VALUES ${CONSENT_DOCUMENT_KINDS.map((kind) => `(${quote(kind)}, ${quote(accepted[kind].version)}, ${quote(accepted[kind].textSha256)})`).join(', ')})
          AS d(kind, version, text_sha256) ON d.kind = doc.kind::text
        WHERE u.phone LIKE '${LARGE_SEED_PHONE_PREFIX}%' AND u.agreement_accepted_at IS NOT NULL;`,
    },
    {
      label: 'sign-in codes and sessions',
      sql: `INSERT INTO otp_challenges (id, phone, code_hash, expires_at, attempts, used_at, created_at)
        SELECT ${uuid('otp', 'i')}, '${LARGE_SEED_PHONE_PREFIX}' || lpad(i::text, 8, '0'), md5(${s} || 'code:' || i),
               t + interval '10 minutes', (${h('otp', 'i')} % 3)::int,
               CASE WHEN ${h('otp', 'i')} % 5 <> 0 THEN t + interval '1 minute' END, t
        FROM (SELECT i, ${userCreated('i')} + (${end} - ${userCreated('i')}) * ((${h('otpt', 'i')} % 1000) / 1000.0) AS t
              FROM generate_series(1, ${n}) i WHERE i % 2 = 0) c;
        INSERT INTO sessions (id, user_id, expires_at, created_at)
        SELECT md5(${s} || 'session:' || i) || md5(${s} || 'session2:' || i), ${uuid('user', 'i')},
               CASE WHEN i % 10 = 0 THEN ${end} + interval '30 days' ELSE t + interval '30 days' END, t
        FROM (SELECT i, ${userCreated('i')} + (${end} - ${userCreated('i')}) * ((${h('sest', 'i')} % 1000) / 1000.0) AS t
              FROM generate_series(1, ${n}) i WHERE i % 5 = 0) c;`,
    },
    {
      label: 'payments (plan)',
      // One row per payment with every decision taken, read by the payments, subscriptions, ledger,
      // refunds and audit steps.
      sql: `CREATE TEMP TABLE seed_pay ON COMMIT DROP AS
        SELECT j, ${uuid('pay', 'j')} AS id, ${uuid('user', 'u')} AS user_id, method, created,
               CASE
                 -- An order left open (CREATED) is given up by the reconciliation job once it is past
                 -- RECONCILE_AFTER_MS: only the last quarter of an hour before --until still has open ones.
                 WHEN method = 'GATEWAY' AND r % 20 >= 18 AND created <= ${end} - interval '15 minutes' THEN 'CANCELLED'
                 WHEN method = 'GATEWAY' THEN (ARRAY['PAID','PAID','PAID','PAID','PAID','PAID','PAID','PAID',
                   'PAID','PAID','PAID','PAID','PAID','PAID','PAID','FAILED','FAILED','CANCELLED','CREATED','CREATED'])[1 + r % 20]
                 WHEN created > ${end} - interval '7 days' THEN (ARRAY['PENDING_VERIFICATION','PENDING_VERIFICATION',
                   'PENDING_VERIFICATION','PAID','PAID','REJECTED'])[1 + r % 6]
                 ELSE (ARRAY['PAID','PAID','PAID','PAID','PAID','PAID','PAID','REJECTED','EXPIRED','EXPIRED'])[1 + r % 10]
               END::"PaymentStatus" AS status,
               k1, CASE WHEN r2 % 5 = 0 THEN k1 % 4 + 1 END AS k2, r, r2
        FROM (
          SELECT j, u, r, r2, CASE WHEN r2 % 10 < 7 THEN 'GATEWAY' ELSE 'MANUAL' END::"PaymentMethod" AS method,
                 1 + (r2 / 10 % 4)::int AS k1,
                 ${userCreated('u')} + (${end} - interval '1 minute' - ${userCreated('u')}) * ((r % 1000003) / 1000003.0) AS created
          FROM (
            SELECT j, ${h('pay', 'j')} AS r, ${h('pay2', 'j')} AS r2,
                   -- the first 500 payments belong to customer 1, the long-time customer
                   -- customers with a complete profile (number ending 0 to 6) pay: 10a + b, b < 7
                   CASE WHEN j <= 500 THEN 1 ELSE coalesce(nullif(least(10 * (${h('payu', 'j')} % ${Math.ceil(n / 10) || 1})
                     + ${h('payu2', 'j')} % 7, ${n + 1}), 0), ${n + 1}) END AS u0
            FROM generate_series(1, ${n > 0 ? m : 0}) j
          ) a0 CROSS JOIN LATERAL (SELECT CASE WHEN u0 > ${n} THEN 1 ELSE u0 END AS u) a
        ) b;
        ALTER TABLE seed_pay ADD COLUMN paid_at timestamptz, ADD COLUMN refunded boolean;
        UPDATE seed_pay SET paid_at = CASE WHEN status = 'PAID' THEN created + (r % 3000) * interval '1 second' END;
        -- about 1 in 97 single-service payments was ended half way and refunded, when that half is past
        UPDATE seed_pay p SET refunded = p.status = 'PAID' AND p.k2 IS NULL AND p.r2 % 97 = 0
          AND p.paid_at + (SELECT days FROM seed_svc WHERE k = p.k1) * interval '12 hours' < ${end};
        CREATE INDEX ON seed_pay (j);`,
    },
    {
      label: 'payments',
      sql: `INSERT INTO payments (id, user_id, method, status, amount_paise, currency, cart, gateway_order_id,
                                  gateway_payment_id, failure_reason, utr, payer_account_name, paid_via, created_at,
                                  paid_at, expires_at, rejected_reason)
        SELECT p.id, p.user_id, p.method, p.status, a.price + coalesce(b.price, 0), 'INR',
               jsonb_build_array(jsonb_build_object('serviceId', a.id, 'name', a.name, 'pricePaise', a.price, 'durationDays', a.days))
                 || CASE WHEN b.k IS NULL THEN '[]'::jsonb ELSE jsonb_build_array(jsonb_build_object('serviceId', b.id,
                      'name', b.name, 'pricePaise', b.price, 'durationDays', b.days)) END,
               CASE WHEN p.method = 'GATEWAY' THEN 'order_S' || ${seed} || 'x' || lpad(p.j::text, 9, '0') END,
               CASE WHEN p.method = 'GATEWAY' AND p.status = 'PAID' THEN 'pay_S' || ${seed} || 'x' || lpad(p.j::text, 9, '0') END,
               CASE WHEN p.status = 'FAILED' THEN (ARRAY['Payment declined by the bank', 'Card authentication failed',
                 'UPI request expired'])[1 + p.r % 3]
                 WHEN p.status = 'CANCELLED' AND p.r % 20 >= 18 THEN 'No payment was attempted for this order.' END,
               CASE WHEN p.method = 'MANUAL' THEN lpad((p.r % 1000000000000)::text, 12, '0') END,
               CASE WHEN p.method = 'MANUAL' THEN upper(u.name) END,
               CASE WHEN p.status = 'PAID' THEN (CASE WHEN p.method = 'MANUAL' THEN 'admin' ELSE 'webhook' END) END,
               p.created, p.paid_at,
               CASE WHEN p.method = 'MANUAL' THEN p.created + interval '7 days' END,
               CASE WHEN p.status = 'REJECTED' THEN 'No transfer with this UTR reached the account' END
        FROM seed_pay p JOIN seed_svc a ON a.k = p.k1 LEFT JOIN seed_svc b ON b.k = p.k2
        JOIN users u ON u.id = p.user_id
        ORDER BY p.created, p.id;`,
    },
    {
      label: 'subscriptions',
      sql: `INSERT INTO subscriptions (id, user_id, service_id, payment_id, paid_at, starts_at, ends_at, created_at, ended_at, original_ends_at)
        SELECT ${uuid('sub', "p.j || ':' || svc.k")}, p.user_id, svc.id, p.id, p.paid_at, p.paid_at,
               CASE WHEN p.refunded THEN p.paid_at + svc.days * interval '12 hours' ELSE p.paid_at + svc.days * interval '1 day' END,
               p.paid_at,
               CASE WHEN p.refunded THEN p.paid_at + svc.days * interval '12 hours' END,
               CASE WHEN p.refunded THEN p.paid_at + svc.days * interval '1 day' END
        FROM seed_pay p JOIN seed_svc svc ON svc.k IN (p.k1, p.k2)
        WHERE p.status = 'PAID'
        ORDER BY p.paid_at, p.id, svc.k;`,
    },
    {
      label: 'refunds',
      sql: `INSERT INTO refunds (id, user_id, payment_id, subscription_id, kind, reason, amount_paise, status, note,
                                 attempts, created_at, processed_at, bank_reference, gateway_refund_id)
        SELECT ${uuid('refund', 'p.j')}, p.user_id, p.id, ${uuid('sub', "p.j || ':' || svc.k")}, 'ENDING',
               (ARRAY['CUSTOMER_ENDED', 'ADMIN_ENDED'])[1 + p.r % 2]::"RefundReason",
               -- endingRefundPaise at half the period: fee x whole days left / days bought, rounded down
               (svc.price::bigint * (svc.days / 2) / svc.days)::int, st,
               'Ended half way', CASE WHEN st = 'FAILED' THEN 3 ELSE 1 END, ended,
               CASE WHEN st = 'PROCESSED' THEN least(ended + interval '2 days', ${end}) END,
               CASE WHEN st = 'PROCESSED' AND p.method = 'MANUAL' THEN 'NEFT' || lpad((p.r % 100000000)::text, 8, '0') END,
               CASE WHEN st = 'PROCESSED' AND p.method = 'GATEWAY' THEN 'rfnd_S' || ${seed} || 'x' || lpad(p.j::text, 9, '0') END
        FROM (SELECT p.*, p.paid_at + svc.days * interval '12 hours' AS ended,
                     CASE WHEN p.paid_at + svc.days * interval '12 hours' < ${end} - interval '10 days' THEN 'PROCESSED'
                          ELSE (ARRAY['DUE', 'PENDING', 'FAILED', 'PROCESSED'])[1 + p.r2 % 4] END::"RefundStatus" AS st
              FROM seed_pay p JOIN seed_svc svc ON svc.k = p.k1 WHERE p.refunded) p
        JOIN seed_svc svc ON svc.k = p.k1
        ORDER BY p.ended, p.id;`,
    },
    {
      label: 'ledger',
      // GST as gstContainedPaise and gstShareOfRefundPaise (app/domain/gst.ts) compute it: the seed's
      // refunds are one per payment, so nothing of the payment's GST was refunded before.
      sql: `WITH moves AS (
          SELECT p.user_id, 'PAYMENT'::"LedgerEntryKind" AS kind, p.id AS payment_id, NULL::uuid AS refund_id,
                 p.amount_paise AS amount, ${paymentGst('p.amount_paise')} AS gst, p.paid_at AS at,
                 '${gst ? 'INV' : 'RCT'}' AS series, p.id AS tie
          FROM payments p JOIN seed_pay s ON s.id = p.id WHERE p.status = 'PAID'
          UNION ALL
          SELECT r.user_id, 'REFUND', r.payment_id, r.id, -r.amount_paise,
                 -least(round(r.amount_paise::numeric * ${paymentGst('p.amount_paise')} / p.amount_paise)::int,
                        ${paymentGst('p.amount_paise')}),
                 r.created_at, 'CN', r.id
          -- The credit note is issued when the subscription is ended (recordRefundInLedger), whatever the refund's state.
          FROM refunds r JOIN seed_pay s ON s.id = r.payment_id JOIN payments p ON p.id = r.payment_id
        ), numbered AS (
          SELECT m.*, ${fyStart('m.at')} AS fy,
                 row_number() OVER (PARTITION BY m.series, ${fyStart('m.at')} ORDER BY m.at, m.tie) AS n
          FROM moves m
        )
        INSERT INTO ledger_entries (user_id, kind, payment_id, refund_id, amount_paise, gst_paise, gst_rate_basis_points,
                                    seller_gstin, document_number, occurred_at, created_at)
        SELECT x.user_id, x.kind, x.payment_id, x.refund_id, x.amount, x.gst, ${gst?.rateBasisPoints ?? 0},
               ${gst ? quote(gst.gstin) : 'NULL'}, x.series || '/' || ${fyCode('x.fy')} || '/' || lpad((x.n + coalesce(d.last_number, 0))::text, 6, '0'),
               x.at, x.at
        FROM numbered x LEFT JOIN document_sequences d ON d.series = x.series AND d.financial_year = ${fyLabel('x.fy')}
        ORDER BY x.at, x.tie;
        INSERT INTO document_sequences (series, financial_year, last_number)
        SELECT split_part(document_number, '/', 1), ${fyLabel(fyStart('occurred_at'))},
               max(split_part(document_number, '/', 3)::int)
        FROM ledger_entries WHERE document_number ~ '^(INV|RCT|CN)/'
        GROUP BY 1, 2
        ON CONFLICT (series, financial_year) DO UPDATE SET last_number = greatest(document_sequences.last_number, excluded.last_number);`,
    },
    {
      label: 'audit',
      sql: `INSERT INTO audit_logs (actor_id, action, subject_type, subject_id, before, after, created_at)
        SELECT ${uuid('admin', '0')}, CASE WHEN status = 'PAID' THEN 'payment.confirm' ELSE 'payment.reject' END,
               'Payment', id::text, jsonb_build_object('status', 'PENDING_VERIFICATION'),
               CASE WHEN status = 'PAID' THEN jsonb_build_object('status', 'PAID', 'paidAt', paid_at, 'paidVia', 'admin')
                    ELSE jsonb_build_object('status', 'REJECTED', 'rejectedReason', 'No transfer with this UTR reached the account') END,
               coalesce(paid_at, created + interval '1 day')
        FROM seed_pay WHERE method = 'MANUAL' AND status IN ('PAID', 'REJECTED')
        ORDER BY coalesce(paid_at, created + interval '1 day');
        INSERT INTO audit_logs (actor_id, action, subject_type, subject_id, before, after, created_at)
        SELECT ${uuid('admin', '0')}, 'customer.pan-card.view', 'User', ${uuid('user', 'i')}::text, NULL, NULL,
               ${userCreated('i')} + interval '2 days'
        FROM generate_series(1, ${n}) i WHERE ${h('panview', 'i')} % 20 = 0;`,
    },
    {
      // Research: a report a month for each 30-day service over the 5 years, published to the customers
      // whose subscription to it ran then (the roll), each with its e-mail sent. Its signature is left
      // empty here and written by scripts/seed-large.ts with the store's key (Ed25519 over the app's
      // canonical form, which only the app writes).
      label: 'research',
      sql: `CREATE TEMP TABLE seed_research ON COMMIT DROP AS
          SELECT ${uuid('research', "svc.k || ':' || m")} AS id, svc.id AS service_id, svc.name, m, t.at
          FROM seed_svc svc CROSS JOIN generate_series(1, ${LARGE_SEED_RESEARCH_MONTHS}) m
          CROSS JOIN LATERAL (SELECT ${start} + (m - 1) * interval '1 month' + interval '9 days 4 hours' AS at) t
          WHERE svc.days = 30 AND t.at < ${end};
        INSERT INTO research_items (id, status, title, body, financial_interest, ownership_one_percent,
                                    compensation_past_year, other_conflict, ai_tools_used, author_id, created_at,
                                    published_at, analyst_name, sebi_registration_number, bse_enlistment_number,
                                    content_sha256, signature, signing_key_fingerprint)
        SELECT id, 'PUBLISHED', name || ': ideas for month ' || m,
               '## Summary' || chr(10) || repeat('Margins held through the quarter. ', 30), false, false, false, 'None',
               false, ${uuid('admin', '0')}, at, at, 'Seed Research', 'INH000000000', '0000', '', '', ''
        FROM seed_research ORDER BY at;
        INSERT INTO research_item_services (item_id, service_id) SELECT id, service_id FROM seed_research;
        INSERT INTO research_roll (item_id, user_id, delivered_at)
        SELECT DISTINCT r.id, s.user_id, r.at
        FROM seed_research r JOIN subscriptions s ON s.service_id = r.service_id AND s.starts_at <= r.at AND s.ends_at > r.at;
        UPDATE research_items i SET roll_size = (SELECT count(*)::int FROM research_roll r WHERE r.item_id = i.id)
        FROM seed_research s WHERE s.id = i.id;
        INSERT INTO research_deliveries (id, item_id, user_id, channel, status, attempts, queued_at, next_attempt_at,
                                         sent_at, provider_message_id)
        SELECT md5(r.item_id::text || r.user_id::text)::uuid, r.item_id, r.user_id, 'EMAIL', 'SENT', 1, r.delivered_at,
               r.delivered_at, r.delivered_at + interval '40 seconds', '<' || r.item_id || '.' || r.user_id || '@seed>'
        FROM research_roll r JOIN seed_research i ON i.id = r.item_id JOIN users u ON u.id = r.user_id
        WHERE u.email IS NOT NULL AND u.email <> '';`,
    },
    {
      label: 'rebuild secondary indexes',
      sql: `DO $$ DECLARE r record; BEGIN
          FOR r IN SELECT definition FROM seed_secondary_indexes LOOP EXECUTE r.definition; END LOOP;
        END $$;`,
    },
    { label: 'analyze', sql: 'ANALYZE' },
  ]
}
