import { renderToStaticMarkup } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import { ServiceDescription } from '~/components/service-description'

describe('ServiceDescription', () => {
  it('shows each description line as a bullet', () => {
    expect(renderToStaticMarkup(<ServiceDescription lines={['Daily ideas', 'Weekly review']} />)).toMatch(
      /<li>Daily ideas<\/li><li>Weekly review<\/li>/,
    )
  })

  it("shows 'Service description goes here.' (docs/product.md section 2) for a service without a description", () => {
    expect(renderToStaticMarkup(<ServiceDescription lines={[]} />)).toMatch(
      /<li>Service description goes here\.<\/li><\/ul>$/,
    )
  })
})
