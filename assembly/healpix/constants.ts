// Constants of the HEALPix code, to the last digit as HEALPix C++ writes them (so that
// products round the same), and the deepest order a 64-bit pixel id allows.
export const PI: f64 = 3.141592653589793238462643383279502884197;
export const TWOPI: f64 = 6.283185307179586476925286766559005768394;
export const HALFPI: f64 = 1.570796326794896619231321691639751442099;
export const INV_HALFPI: f64 = 0.6366197723675813430755350534900574;
export const INV_TWOPI: f64 = 0.1591549430918953357688837633725143620345;
export const TWOTHIRD: f64 = 2.0 / 3.0;
export const MAX_ORDER: i32 = 29;
