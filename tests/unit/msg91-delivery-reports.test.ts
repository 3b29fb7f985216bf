import { describe, expect, it } from 'vitest'
import { msg91Reports, msg91Time } from '~/domain/msg91-delivery-reports'

describe('MSG91 delivery reports', () => {
  it('read India times, refusing what is not one', () => {
    expect(msg91Time('2024-05-22 10:06:20')).toEqual(new Date('2024-05-22T04:36:20.000Z'))
    expect(msg91Time('2024-02-30 10:06:20')).toBeNull()
    expect(msg91Time('2024-05-22 25:06:20')).toBeNull()
    expect(msg91Time('yesterday')).toBeNull()
    expect(msg91Time(42)).toBeNull()
  })

  it('read v2 forms (data: a JSON array with a report per number) and v3 JSON objects', () => {
    const data = JSON.stringify([
      {
        requestId: 'r1',
        report: [
          { date: '2024-05-22 10:06:20', number: '91', status: '1', desc: 'DELIVERED' },
          { date: 'bad', status: '2' },
          'junk',
        ],
      },
      { requestId: 'r2', report: 'not a list' },
    ])
    expect(msg91Reports(new URLSearchParams({ data }).toString(), 'application/x-www-form-urlencoded')).toEqual([
      { requestId: 'r1', status: '1', deliveredAt: new Date('2024-05-22T04:36:20.000Z') },
      { requestId: 'r1', status: '2', deliveredAt: null },
    ])
    expect(msg91Reports('{"requestId":"r3","status":1}', 'application/json')).toEqual([
      { requestId: 'r3', status: '1', deliveredAt: null },
    ])
    expect(msg91Reports('{"status":"1"}', 'application/json')).toEqual([])
  })

  it('answer null for a body that is neither', () => {
    expect(msg91Reports('nope', 'application/json')).toBeNull()
    expect(msg91Reports('other=1', 'application/x-www-form-urlencoded')).toBeNull()
    expect(msg91Reports('data=%7Bbroken', 'application/x-www-form-urlencoded')).toBeNull()
  })
})
