import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { CONTROL_CHARACTER_MESSAGE, hasControlCharacter, jsonHasControlCharacter } from '~/domain/control-characters'
import { plainText } from '~/domain/plain-text'

describe('plain text', () => {
  it.each(['\u0000', '\u0001', '\u001b', '\u001f', '\u007f', '\t', '\n', '\r'])(
    'refuses %j in a one-line field',
    (character) => {
      expect(hasControlCharacter(`a${character}b`)).toBe(true)
    },
  )

  it('keeps tabs and line breaks in a field of several lines, and nothing else', () => {
    expect(hasControlCharacter('a\r\nb\tc', { multiLine: true })).toBe(false)
    expect(hasControlCharacter('a\u0000b', { multiLine: true })).toBe(true)
    expect(hasControlCharacter('a\u007fb', { multiLine: true })).toBe(true)
  })

  it('takes letters of any script, emoji and punctuation', () => {
    expect(hasControlCharacter('आशा राव ☃ 😀 "quoted" <b>')).toBe(false)
  })

  it('finds a control character in any string or key of a JSON body', () => {
    expect(jsonHasControlCharacter({ a: [1, { b: 'ok' }], c: null })).toBe(false)
    expect(jsonHasControlCharacter({ a: [1, { b: 'o\u0000k' }] })).toBe(true)
    expect(jsonHasControlCharacter({ 'k\u0000': 1 })).toBe(true)
    expect(jsonHasControlCharacter('line one\nline two')).toBe(false)
  })

  it('refuses a control character first, with its own message', () => {
    const result = plainText(z.string()).max(3).safeParse('toolong\u0000')
    expect(result.success ? [] : result.error.issues.map((issue) => issue.message)).toEqual([CONTROL_CHARACTER_MESSAGE])
  })
})
