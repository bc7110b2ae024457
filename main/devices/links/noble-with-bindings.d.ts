// @abandonware/noble ships no types for this entry: it takes a bindings object and returns a Noble.
declare module '@abandonware/noble/with-bindings' {
  const withBindings: (bindings: unknown) => typeof import('@abandonware/noble');
  export default withBindings;
}
