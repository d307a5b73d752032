// The address's hash as the page was opened. The globe's code arrives after the first paint, by
// when the access gate may already have sent a visitor on to /login; the view and the layers a
// shared link names are read from this instead. Imported by GlobeLoader, so that it is read at
// start-up, in the first chunk.
export const openingHash: string = typeof location === 'undefined' ? '' : location.hash;
