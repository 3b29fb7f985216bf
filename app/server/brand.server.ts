import { brandWithRegisteredName } from '~/domain/business-details'

/**
 * The brand as messages name the store: alone where a text is short and says whose code it is (a
 * one-time code), and with the registered name beside it where an SMS names its sender. Read when a
 * message is written, not when a module loads (as emailContext does): the modules that send codes
 * and notices should not need the business details to be imported.
 */
export async function brandNames(): Promise<{ brand: string; sender: string }> {
  const { businessDetails } = await import('./business.server')
  return { brand: businessDetails.brandName, sender: brandWithRegisteredName(businessDetails) }
}
