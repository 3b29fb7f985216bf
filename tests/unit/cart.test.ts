import { describe, expect, it } from 'vitest'
import {
  addToCart,
  cartTotalPaise,
  dedupeServiceIds,
  describeCartChange,
  readShownCart,
  shownCartValue,
  MAX_CART_SERVICES,
  readCartSnapshot,
  removeFromCart,
  sameServices,
  payAgainNotice,
} from '~/domain/cart'

describe('cart math', () => {
  it('totals integer paise', () => {
    expect(cartTotalPaise([{ pricePaise: 149_900 }, { pricePaise: 299_950 }])).toBe(449_850)
    expect(cartTotalPaise([])).toBe(0)
  })

  it('refuses fractional, zero or negative prices', () => {
    expect(() => cartTotalPaise([{ pricePaise: 499.5 }])).toThrow(RangeError)
    expect(() => cartTotalPaise([{ pricePaise: 0 }])).toThrow(RangeError)
    expect(() => cartTotalPaise([{ pricePaise: -100 }])).toThrow(RangeError)
  })

  it('dedupes ids keeping first-seen order and drops blanks', () => {
    expect(dedupeServiceIds(['b', 'a', 'b', ' ', 'c', 'a'])).toEqual(['b', 'a', 'c'])
  })

  it(`keeps at most MAX_CART_SERVICES (${MAX_CART_SERVICES}) ids`, () => {
    expect(MAX_CART_SERVICES).toBe(50)
    expect(dedupeServiceIds(Array.from({ length: 80 }, (_, i) => `s${i}`))).toHaveLength(50)
  })

  it('adds and removes by id', () => {
    expect(addToCart(['a'], 'b')).toEqual(['a', 'b'])
    expect(addToCart(['a', 'b'], 'a')).toEqual(['a', 'b'])
    expect(removeFromCart(['a', 'b'], 'a')).toEqual(['b'])
    expect(removeFromCart(['a'], 'x')).toEqual(['a'])
  })

  it('compares carts as sets', () => {
    expect(sameServices(['a', 'b'], ['b', 'a', 'a'])).toBe(true)
    expect(sameServices(['a'], ['a', 'b'])).toBe(false)
  })
})

describe('readCartSnapshot', () => {
  it('reads the cart a payment recorded, and throws on a row that does not hold one', () => {
    const item = { serviceId: 's1', name: 'Equity', pricePaise: 299_900, durationDays: 30 }
    expect(readCartSnapshot([item])).toEqual([item])
    expect(readCartSnapshot([])).toEqual([])
    expect(() => readCartSnapshot({ items: [item] })).toThrow()
    expect(() => readCartSnapshot([{ ...item, pricePaise: '2999' }])).toThrow()
    expect(() => readCartSnapshot([{ serviceId: 's1' }])).toThrow()
  })
})

describe('describeCartChange', () => {
  const premium = { serviceId: 'a', name: 'Equity Premium', pricePaise: 299_900, durationDays: 30 }
  const swing = { serviceId: 'b', name: 'Swing Trading Ideas', pricePaise: 149_900, durationDays: 30 }
  const names = (id: string) => ({ a: 'Equity Premium', b: 'Swing Trading Ideas' })[id] ?? id

  it('says nothing when the cart is as shown, and round-trips the shown value', () => {
    const shown = readShownCart(shownCartValue([premium, swing]))
    expect(shown).toEqual([
      { serviceId: 'a', pricePaise: 299_900 },
      { serviceId: 'b', pricePaise: 149_900 },
    ])
    expect(describeCartChange(shown, [swing, premium], names)).toBeUndefined()
  })

  it('names services added and removed, and a changed price with its old and new amount', () => {
    expect(describeCartChange([premium], [premium, swing], names)).toBe(
      'Your cart changed since this page was shown: Swing Trading Ideas was added. Please check the total below and try again.',
    )
    expect(describeCartChange([premium, swing], [premium], names)).toMatch(/: Swing Trading Ideas was removed\./)
    expect(describeCartChange([premium], [{ ...premium, pricePaise: 349_950 }], names)).toMatch(
      /: the price of Equity Premium is now Rs\. 3,499\.50 \(was Rs\. 2,999\)\./,
    )
  })

  it('skips malformed pairs of a shown value', () => {
    expect(readShownCart('a:100,b:x,:5,,c')).toEqual([{ serviceId: 'a', pricePaise: 100 }])
  })
})

describe('payAgainNotice', () => {
  const premium = { serviceId: 'p', name: 'Equity Premium' }
  const swing = { serviceId: 's', name: 'Swing Trading Ideas' }
  it('names the cart that "Pay again" replaces', () => {
    expect(payAgainNotice([swing], [premium])).toBe(
      'Your cart holds Swing Trading Ideas. Pay again replaces it with Equity Premium.',
    )
    expect(payAgainNotice([premium, swing], [premium])).toBe(
      'Your cart holds Equity Premium, Swing Trading Ideas. Pay again replaces it with Equity Premium.',
    )
  })
  it('says nothing when nothing in the cart would be lost', () => {
    expect(payAgainNotice([], [premium])).toBeNull()
    expect(payAgainNotice([premium], [premium, swing])).toBeNull()
  })
})
