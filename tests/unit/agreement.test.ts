import { createHash } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { agreementDocument } from '~/server/account/agreement-document.server'
import { documentText, type Block, type LegalDocument, type LegalSection } from '~/content/legal/document'
import { DEMO_BUSINESS_ENV, parseBusinessDetails } from '~/server/business.server'

const demoDetails = parseBusinessDetails({}, { demoMode: true })

/** Every string a reader sees in the document, with a function that rebuilds the document with that string changed. */
function everyString(document: LegalDocument): { where: string; change: () => LegalDocument }[] {
  const copy = () => structuredClone(document)
  const found: { where: string; change: () => LegalDocument }[] = [
    { where: 'title', change: () => ({ ...copy(), title: `${document.title}!` }) },
    { where: 'date line', change: () => ({ ...copy(), dateLine: `${document.dateLine}!` }) },
  ]
  const visitBlocks = (blocks: Block[], where: string, locate: (doc: LegalDocument) => Block[]) => {
    blocks.forEach((block, index) => {
      if (typeof block === 'string') {
        found.push({
          where: `${where} paragraph ${index}`,
          change: () => edit(copy(), (doc) => (locate(doc)[index] = `${block} (edited)`)),
        })
      } else if ('table' in block) {
        block.table.rows.forEach((row, rowIndex) =>
          row.forEach((cell, cellIndex) => {
            found.push({
              where: `${where} table ${index} row ${rowIndex} cell ${cellIndex}`,
              change: () =>
                edit(copy(), (doc) => {
                  const table = (locate(doc)[index] as { table: { rows: string[][] } }).table
                  table.rows[rowIndex]![cellIndex] = `${cell}.`
                }),
            })
          }),
        )
      } else {
        block.list.forEach((item, itemIndex) => {
          found.push({
            where: `${where} list ${index} item ${itemIndex}`,
            change: () =>
              edit(copy(), (doc) => ((locate(doc)[index] as { list: string[] }).list[itemIndex] = `${item}.`)),
          })
        })
      }
    })
  }
  const visitSections = (sections: LegalSection[], where: string, locate: (doc: LegalDocument) => LegalSection[]) => {
    sections.forEach((section, index) => {
      const here = `${where} > ${section.heading}`
      const locateSection = (doc: LegalDocument) => locate(doc)[index]!
      found.push({
        where: `${here} heading`,
        change: () => edit(copy(), (doc) => (locateSection(doc).heading = `${section.heading}s`)),
      })
      visitBlocks(section.blocks, here, (doc) => locateSection(doc).blocks)
      visitSections(section.sections ?? [], here, (doc) => locateSection(doc).sections!)
    })
  }
  visitBlocks(document.intro ?? [], 'intro', (doc) => doc.intro!)
  visitSections(document.sections, '', (doc) => doc.sections)
  return found
}

function edit(document: LegalDocument, change: (document: LegalDocument) => void): LegalDocument {
  change(document)
  return document
}

describe('agreementDocument', () => {
  const agreement = agreementDocument(demoDetails)

  it('has a version made of the first 12 hex digits of the SHA-256 of its exact text', () => {
    expect(agreement.textSha256).toBe(createHash('sha256').update(agreement.text).digest('hex'))
    expect(agreement.version).toMatch(/^agreement-[0-9a-f]{12}$/)
    expect(agreement.version).toBe(`agreement-${agreement.textSha256.slice(0, 12)}`)
  })

  it('is the terms, the MITC and the consent statement, all in the versioned text', () => {
    expect(agreement.text).toBe(documentText(agreement.terms))
    expect(agreement.terms.sections.map((section) => section.id).slice(-3)).toEqual([
      'mandatory-terms',
      'mitc',
      'consent',
    ])
    expect(agreement.terms.sections.find((section) => section.id === 'mitc')).toEqual(agreement.mitc)
    for (const paragraph of agreement.consentStatement) expect(agreement.text).toContain(paragraph)
    expect(agreement.text).toContain('31.4 Refund on early termination')
    expect(agreement.text).toContain('refund of the proportionate fee for the unexpired period')
    expect(agreement.text).toContain('there is no recourse to claim any losses')
  })

  it('gets a new version when any word a customer reads changes', () => {
    const strings = everyString(agreement.terms)
    expect(strings.length).toBeGreaterThan(150)
    for (const { where, change } of strings) {
      expect(documentText(change()), where).not.toBe(agreement.text)
    }
  })

  it('gets a new version when a business detail in the text changes, and keeps it otherwise', () => {
    expect(agreementDocument(demoDetails).version).toBe(agreement.version)
    const otherEmail = parseBusinessDetails({ SUPPORT_EMAIL: 'help@example.in' }, { demoMode: true })
    expect(agreementDocument(otherEmail).version).not.toBe(agreement.version)
    const otherCity = parseBusinessDetails({ JURISDICTION_CITY: 'Pune' }, { demoMode: true })
    expect(agreementDocument(otherCity).version).not.toBe(agreement.version)
  })

  it('is pinned: a change to the wording must be deliberate, since customers then accept the new version', () => {
    // If this fails you changed the agreement text: check the change, then update the pin. (Last: the effective date
    // left the text, the page prints the recorded version's, decision 053.)
    expect(agreementDocument(parseBusinessDetails(DEMO_BUSINESS_ENV, { demoMode: true })).version).toBe(
      'agreement-e6b5c8963ca2',
    )
  })
})
