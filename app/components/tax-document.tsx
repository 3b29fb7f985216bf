import { formatGstRate } from '~/domain/gst'
import { formatSignedRupees } from '~/domain/money'
import type { TaxDocumentView } from '~/domain/tax-documents'

const cell = 'border border-gray-300 px-3 py-2 align-top dark:border-gray-700'
const amountCell = `${cell} text-right tabular-nums`

/** An invoice, receipt or credit note, laid out to print on one A4 page. */
export function TaxDocument({ document }: { document: TaxDocumentView }) {
  const { seller, buyer } = document
  const halfRate = formatGstRate(document.gstRateBasisPoints / 2)
  return (
    <article className="max-w-3xl space-y-6 bg-white p-0 text-gray-900 sm:p-6 dark:bg-gray-950 dark:text-gray-100 print:p-0">
      <header className="flex flex-col gap-4 sm:flex-row sm:justify-between">
        <div>
          <h1 className="text-2xl font-semibold">{document.title}</h1>
          <dl className="mt-2 grid grid-cols-[auto_1fr] gap-x-3 text-sm">
            <dt className="font-medium">Number</dt>
            <dd>{document.number}</dd>
            <dt className="font-medium">Date</dt>
            <dd>{document.issuedOn}</dd>
            {document.placeOfSupply ? (
              <>
                <dt className="font-medium">Place of supply</dt>
                <dd>{document.placeOfSupply}</dd>
                <dt className="font-medium">Tax payable on reverse charge</dt>
                <dd>No</dd>
              </>
            ) : null}
            {document.againstNumber ? (
              <>
                <dt className="font-medium">Against invoice</dt>
                <dd>{document.againstNumber}</dd>
              </>
            ) : null}
          </dl>
        </div>
        <div className="text-sm sm:text-right">
          <p className="font-semibold">{seller.legalName}</p>
          {seller.legalName !== seller.name ? <p>{seller.name}</p> : null}
          <p>Research Analyst, SEBI registration no. {seller.sebiRegistrationNumber}</p>
          <p>{seller.address}</p>
          {seller.gstin ? <p>GSTIN {seller.gstin}</p> : <p>Not registered under GST: no GST charged.</p>}
          <p>
            {seller.supportEmail}, {seller.supportPhone}
          </p>
        </div>
      </header>

      <section aria-labelledby="billed-to" className="text-sm">
        <h2 id="billed-to" className="font-semibold">
          Billed to
        </h2>
        <p>{buyer.name}</p>
        <p>
          {buyer.phone}
          {buyer.email ? `, ${buyer.email}` : null}
        </p>
        {buyer.pan ? <p>PAN {buyer.pan}</p> : null}
      </section>

      <div role="region" aria-label={`${document.title} lines`} tabIndex={0} className="overflow-x-auto">
        <table className="w-full min-w-[20rem] border-collapse text-sm">
          <thead>
            <tr>
              <th scope="col" className={`${cell} text-left`}>
                Description{seller.sacCode ? ` (SAC ${seller.sacCode})` : null}
              </th>
              <th scope="col" className={`${cell} text-right`}>
                Amount
              </th>
            </tr>
          </thead>
          <tbody>
            {document.lines.map((line) => (
              <tr key={line.description}>
                <td className={cell}>
                  {line.description}
                  {line.period ? <span className="block text-gray-700 dark:text-gray-300">{line.period}</span> : null}
                </td>
                <td className={amountCell}>{formatSignedRupees(line.amountPaise)}</td>
              </tr>
            ))}
          </tbody>
          <tfoot>
            {seller.gstin ? (
              <>
                <tr>
                  <th scope="row" className={`${cell} text-left font-normal`}>
                    Taxable value
                  </th>
                  <td className={amountCell}>{formatSignedRupees(document.totalPaise - document.gstPaise)}</td>
                </tr>
                <tr>
                  <th scope="row" className={`${cell} text-left font-normal`}>
                    CGST at {halfRate}
                  </th>
                  <td className={amountCell}>{formatSignedRupees(document.cgstPaise)}</td>
                </tr>
                <tr>
                  <th scope="row" className={`${cell} text-left font-normal`}>
                    SGST at {halfRate}
                  </th>
                  <td className={amountCell}>{formatSignedRupees(document.sgstPaise)}</td>
                </tr>
              </>
            ) : null}
            <tr>
              <th scope="row" className={`${cell} text-left`}>
                {document.totalPaise < 0 ? 'Total refunded' : 'Total paid'}
                {seller.gstin ? ` (GST ${formatGstRate(document.gstRateBasisPoints)} included)` : null}
              </th>
              <td className={`${amountCell} font-semibold`}>{formatSignedRupees(document.totalPaise)}</td>
            </tr>
          </tfoot>
        </table>
      </div>

      <p className="text-sm">{document.paidBy}.</p>
      <p className="text-sm text-gray-700 dark:text-gray-300">
        Computer-generated {document.title.toLowerCase()}; no signature required.
        {document.placeOfSupply
          ? " The place of supply is the supplier's state, as no address of the recipient is on record."
          : null}
      </p>
    </article>
  )
}
