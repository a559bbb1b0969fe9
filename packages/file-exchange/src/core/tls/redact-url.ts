/** The address with any user name and password replaced, for messages and logs. */
export function redactUrl(address: string): string {
  try {
    const url = new URL(address);
    if (url.username || url.password) {
      url.username = '***';
      url.password = '';
    }
    // A scheme-less `user:pass@host` parses with `user:` as its scheme and the password in the path.
    return url.host ? url.href : url.href.replace(/^[^@]*@/, '***@');
  } catch {
    return address.replace(/\/\/[^@/]*@/, '//***@');
  }
}
