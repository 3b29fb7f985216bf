import { renderToStaticMarkup } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import { TaxDocument } from '~/components/tax-document'
import { placeOfSupplyText } from '~/domain/gst'
import type { TaxDocumentView } from '~/domain/tax-documents'

const text = (html: string) =>
  html
    .replace(/<\/(dt|dd|p|th|td)>/g, '$& ')
    .replace(/<[^>]+>/g, '')
    .replace(/&#x27;/g, "'")

const invoice: TaxDocumentView = {
  number: 'INV/2627/000001',
  customerId: '00000000-0000-4000-8000-000000000001',
  title: 'Tax invoice',
  issuedOn: '10-04-2026',
  againstNumber: null,
  seller: {
    name: 'Asha Research',
    legalName: 'Asha Kulkarni',
    address: '1 MG Road, Pune, Maharashtra 411001',
    gstin: '27ABCDE1234F1Z5',
    sacCode: '998399',
    sebiRegistrationNumber: 'INH000012345',
    supportEmail: 'support@asha.example.in',
    supportPhone: '+91 00000 00001',
  },
  buyer: { name: 'Ravi Menon', phone: '+91 00000 00002', email: null, pan: 'ABCPE****F' },
  placeOfSupply: placeOfSupplyText('27ABCDE1234F1Z5'),
  lines: [{ description: 'Equity: research service for 30 days', period: null, amountPaise: 118_000 }],
  totalPaise: 118_000,
  gstPaise: 18_000,
  cgstPaise: 9_000,
  sgstPaise: 9_000,
  gstRateBasisPoints: 1800,
  paidBy: 'Paid on the website',
}

describe('TaxDocument', () => {
  it('prints the place of supply with its state code and that no tax is payable on reverse charge', () => {
    const page = text(renderToStaticMarkup(<TaxDocument document={invoice} />))
    expect(page).toContain('Place of supply Maharashtra (27)')
    expect(page).toContain('Tax payable on reverse charge No')
  })

  it('prints them on a credit note too', () => {
    const page = text(
      renderToStaticMarkup(
        <TaxDocument
          document={{ ...invoice, title: 'Credit note', againstNumber: 'INV/2627/000001', totalPaise: -118_000 }}
        />,
      ),
    )
    expect(page).toContain('Place of supply Maharashtra (27)')
    expect(page).toContain('Tax payable on reverse charge No')
  })

  it('leaves both off a receipt: a business not registered for GST charges none', () => {
    const page = text(
      renderToStaticMarkup(
        <TaxDocument
          document={{
            ...invoice,
            title: 'Receipt',
            placeOfSupply: null,
            seller: { ...invoice.seller, gstin: null, sacCode: null },
          }}
        />,
      ),
    )
    expect(page).not.toContain('Place of supply')
    expect(page).not.toContain('reverse charge')
  })
})
