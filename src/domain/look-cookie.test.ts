import { everyLook, lookCookie, lookFromCookies, LOOK_COOKIE } from './look-cookie';

describe('lookFromCookies', () => {
  it('reads the value the SPA writes, among other cookies and with any spacing', () => {
    for (const look of everyLook()) {
      const value = lookCookie(look, true).split(';')[0];
      expect(lookFromCookies(value)).toEqual(look);
      expect(lookFromCookies(`a=1;${value};b=2`)).toEqual(look);
      expect(lookFromCookies(`a=1;   ${LOOK_COOKIE} =  ${look.locale}.${look.theme}  ; b=2`)).toEqual(look);
    }
  });

  it('takes the first of two (the browser sends the most specific path first), even when the second is known', () => {
    expect(lookFromCookies(`${LOOK_COOKIE}=en.dark; ${LOOK_COOKIE}=pt.light`)).toEqual({ locale: 'en', theme: 'dark' });
    expect(lookFromCookies(`${LOOK_COOKIE}=fr.dark; ${LOOK_COOKIE}=pt.light`)).toBeNull();
  });

  it('names nothing for values it does not know, whatever they carry', () => {
    for (const header of [
      undefined,
      '',
      ';;;',
      LOOK_COOKIE,
      `${LOOK_COOKIE}=`,
      `${LOOK_COOKIE}="en.dark"`,
      `${LOOK_COOKIE}=en%2Edark`,
      `${LOOK_COOKIE}=en.dark.dark`,
      `${LOOK_COOKIE}=en.dark\r\nSet-Cookie: x=1`,
      `${LOOK_COOKIE}=constructor.dark`,
      `${LOOK_COOKIE}=toString.light`,
      `x${LOOK_COOKIE}=en.dark`,
      `${LOOK_COOKIE.toUpperCase()}=en.dark`,
      `${LOOK_COOKIE}=${'en.'.repeat(5000)}dark`,
    ])
      expect(lookFromCookies(header), String(header)).toBeNull();
  });
});
