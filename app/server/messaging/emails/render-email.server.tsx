import { randomUUID } from 'node:crypto'
import type { CSSProperties, ReactNode } from 'react'
import { renderToStaticMarkup } from 'react-dom/server'
import { SEBI_STANDARD_WARNING } from '~/content/legal/regulatory'
import { telHref, type BusinessDetails } from '~/domain/business-details'
import { personName } from '~/domain/names'

// Customer e-mails: each template (customer-emails.server.tsx) describes its content as blocks, and
// renderEmail writes them twice from the same data: an HTML part from the components below (inline
// styles and a plain table layout, which mail clients render alike) and a plain-text part.

/** Who is writing, and where the link back goes; `origin` null when the site's public address is unknown (no links then). */
export type EmailContext = {
  business: Pick<BusinessDetails, 'name' | 'sebiRegistrationNumber' | 'supportEmail' | 'supportPhone'>
  origin: string | null
}

export type EmailBlock =
  | { kind: 'paragraph'; text: string }
  | { kind: 'list'; items: string[] }
  /** A fact set apart on its own line, such as "Reason: ...". */
  | { kind: 'note'; label: string; text: string }
  /** A button to a page of the site ("/subscriptions"); left out when the site's address is unknown. */
  | { kind: 'action'; label: string; path: string }
  /** A whole document quoted as plain text, under its heading (line breaks kept). */
  | { kind: 'document'; heading: string; text: string }

/** `template`: which message it is, kept with it in the archive of sent messages. */
export type EmailContent = { template: string; subject: string; name: string | null | undefined; blocks: EmailBlock[] }

/** An e-mail ready to queue: `body` is the plain-text part, `html` the HTML part; replies go to the support address. */
export type RenderedEmail = { template: string; subject: string; body: string; html: string; replyTo: string }

export const SEBI_REGISTRATION_LINE = 'SEBI Registered Research Analyst, Registration No.'

export function renderEmail(content: EmailContent, context: EmailContext): RenderedEmail {
  return renderGreeting(content, greetingOf(content.name), context)
}

/**
 * One e-mail to many recipients who differ only in the name greeted (a research item to its roll of
 * 100,000): the document is rendered once, and each recipient's greeting is put in its place.
 */
export function renderEmailForEach(
  content: Omit<EmailContent, 'name'>,
  context: EmailContext,
): (name: string | null | undefined) => RenderedEmail {
  // A mark no content can hold by chance, where the greeting goes.
  const slot = `greeting-${randomUUID()}`
  const { body, html, ...rest } = renderGreeting(content, slot, context)
  const [bodyBefore, bodyAfter] = body.split(slot)
  const [htmlBefore, htmlAfter] = html.split(slot)
  return (name) => {
    const greeting = greetingOf(name)
    return {
      ...rest,
      body: `${bodyBefore}${greeting}${bodyAfter}`,
      html: `${htmlBefore}${renderToStaticMarkup(<>{greeting}</>)}${htmlAfter}`,
    }
  }
}

function greetingOf(name: string | null | undefined): string {
  const person = personName(name)
  return person ? `Hello ${person},` : 'Hello,'
}

function renderGreeting(content: Omit<EmailContent, 'name'>, greeting: string, context: EmailContext): RenderedEmail {
  const blocks = content.blocks.filter((block) => block.kind !== 'action' || context.origin)
  return {
    template: content.template,
    subject: content.subject,
    replyTo: context.business.supportEmail,
    body: plainText(greeting, blocks, context),
    html: `<!DOCTYPE html>${renderToStaticMarkup(
      <EmailDocument subject={content.subject} context={context}>
        <Paragraph>{greeting}</Paragraph>
        {blocks.map((block, index) => (
          <Block key={index} block={block} origin={context.origin} />
        ))}
      </EmailDocument>,
    )}`,
  }
}

function plainText(greeting: string, blocks: EmailBlock[], { business, origin }: EmailContext): string {
  const lines = blocks.map((block) => {
    switch (block.kind) {
      case 'paragraph':
        return block.text
      case 'list':
        return block.items.map((item) => `- ${item}`).join('\n')
      case 'note':
        return `${block.label}: ${block.text}`
      case 'action':
        return `${block.label}: ${origin}${block.path}`
      case 'document':
        return `===== ${block.heading} =====\n\n${block.text}\n\n===== End of ${block.heading} =====`
    }
  })
  const footer = [
    '--',
    business.name,
    `${SEBI_REGISTRATION_LINE} ${business.sebiRegistrationNumber}`,
    `Questions? Write to ${business.supportEmail} or call ${business.supportPhone}.`,
    ...(origin ? [origin] : []),
    SEBI_STANDARD_WARNING,
  ]
  return [greeting, ...lines, footer.join('\n')].join('\n\n')
}

const FONT = 'Arial, Helvetica, sans-serif'
const TEXT_COLOR = '#111827'
const MUTED_COLOR = '#4b5563'
/** The site's colours: its buttons' green (Tailwind green-700) and its logo's (emerald-800). */
export const EMAIL_BUTTON_COLOR = '#15803d'
export const EMAIL_LOGO_COLOR = '#065f46'
/** The logo as a PNG (mail clients show no SVG), rendered by scripts/render-email-logo.mjs; shown at half its size. */
export const EMAIL_LOGO_PATH = '/email-logo.png'
const EMAIL_LOGO_SHOWN_PX = 48
const linkStyle: CSSProperties = { color: EMAIL_BUTTON_COLOR }
const paragraphStyle: CSSProperties = { margin: '0 0 16px', fontSize: '16px', lineHeight: '24px' }

function EmailDocument({
  subject,
  context,
  children,
}: {
  subject: string
  context: EmailContext
  children: ReactNode
}) {
  const { business, origin } = context
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>{subject}</title>
      </head>
      <body style={{ margin: 0, padding: 0, backgroundColor: '#f3f4f6' }}>
        <table role="presentation" width="100%" cellPadding={0} cellSpacing={0} style={{ backgroundColor: '#f3f4f6' }}>
          <tbody>
            <tr>
              <td align="center" style={{ padding: '24px 12px' }}>
                <table
                  role="presentation"
                  width="100%"
                  cellPadding={0}
                  cellSpacing={0}
                  style={{
                    maxWidth: '560px',
                    backgroundColor: '#ffffff',
                    border: '1px solid #e5e7eb',
                    fontFamily: FONT,
                    color: TEXT_COLOR,
                  }}
                >
                  <tbody>
                    <tr>
                      <td style={{ padding: '16px 24px', borderBottom: `3px solid ${EMAIL_LOGO_COLOR}` }}>
                        {origin ? (
                          <img
                            src={`${origin}${EMAIL_LOGO_PATH}`}
                            width={EMAIL_LOGO_SHOWN_PX}
                            height={EMAIL_LOGO_SHOWN_PX}
                            alt=""
                            style={{ display: 'inline-block', verticalAlign: 'middle', marginRight: '12px', border: 0 }}
                          />
                        ) : null}
                        <span
                          style={{
                            fontSize: '20px',
                            fontWeight: 'bold',
                            color: EMAIL_LOGO_COLOR,
                            verticalAlign: 'middle',
                          }}
                        >
                          {business.name}
                        </span>
                      </td>
                    </tr>
                    <tr>
                      <td style={{ padding: '24px' }}>{children}</td>
                    </tr>
                    <tr>
                      <td
                        style={{
                          padding: '16px 24px',
                          borderTop: '1px solid #e5e7eb',
                          fontSize: '13px',
                          lineHeight: '20px',
                          color: MUTED_COLOR,
                        }}
                      >
                        <strong>{business.name}</strong>
                        <br />
                        {SEBI_REGISTRATION_LINE} {business.sebiRegistrationNumber}
                        <br />
                        Questions? Write to{' '}
                        <a href={`mailto:${business.supportEmail}`} style={linkStyle}>
                          {business.supportEmail}
                        </a>{' '}
                        or call{' '}
                        <a href={telHref(business.supportPhone)} style={linkStyle}>
                          {business.supportPhone}
                        </a>
                        .
                        {origin ? (
                          <>
                            <br />
                            <a href={origin} style={linkStyle}>
                              {origin}
                            </a>
                          </>
                        ) : null}
                        <br />
                        {SEBI_STANDARD_WARNING}
                      </td>
                    </tr>
                  </tbody>
                </table>
              </td>
            </tr>
          </tbody>
        </table>
      </body>
    </html>
  )
}

function Paragraph({ children }: { children: ReactNode }) {
  return <p style={paragraphStyle}>{children}</p>
}

function Block({ block, origin }: { block: EmailBlock; origin: string | null }) {
  switch (block.kind) {
    case 'paragraph':
      return <Paragraph>{block.text}</Paragraph>
    case 'list':
      return (
        <ul style={{ ...paragraphStyle, paddingLeft: '20px' }}>
          {block.items.map((item, index) => (
            <li key={index}>{item}</li>
          ))}
        </ul>
      )
    case 'document':
      return (
        <div style={{ margin: '0 0 24px' }}>
          <h2 style={{ margin: '0 0 8px', fontSize: '18px', lineHeight: '24px' }}>{block.heading}</h2>
          <div
            style={{
              whiteSpace: 'pre-wrap',
              fontSize: '13px',
              lineHeight: '19px',
              padding: '12px 16px',
              border: '1px solid #e5e7eb',
              color: TEXT_COLOR,
            }}
          >
            {block.text}
          </div>
        </div>
      )
    case 'note':
      return (
        <p
          style={{
            ...paragraphStyle,
            padding: '12px 16px',
            backgroundColor: '#f9fafb',
            borderLeft: '4px solid #9ca3af',
          }}
        >
          <strong>{block.label}:</strong> {block.text}
        </p>
      )
    case 'action':
      return (
        <p style={{ ...paragraphStyle, margin: '24px 0' }}>
          <a
            href={`${origin}${block.path}`}
            style={{
              display: 'inline-block',
              padding: '12px 20px',
              backgroundColor: EMAIL_BUTTON_COLOR,
              color: '#ffffff',
              fontWeight: 'bold',
              textDecoration: 'none',
              borderRadius: '6px',
            }}
          >
            {block.label}
          </a>
        </p>
      )
  }
}
