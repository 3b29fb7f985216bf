import type { BankAccount } from '~/domain/business-details'

/** Where a bank transfer goes: the account number, IFSC and account name. */
export function BankAccountDetails({ bankAccount }: { bankAccount: BankAccount }) {
  return (
    <dl className="mt-2 grid grid-cols-[auto_minmax(0,1fr)] gap-x-3 break-words">
      <dt>Account number</dt>
      <dd className="font-mono">{bankAccount.accountNumber}</dd>
      <dt>IFSC</dt>
      <dd className="font-mono">{bankAccount.ifsc}</dd>
      <dt>Account name</dt>
      <dd>{bankAccount.accountName}</dd>
    </dl>
  )
}
