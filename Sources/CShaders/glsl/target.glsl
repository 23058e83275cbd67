// How the resize shaders write working pictures (binding 1), which the next pass reads as texels:
// RGBA as four 16-bit floats (two uints a pixel: half the memory of 32-bit), or with ONE_CHANNEL
// defined (one plane of YUV pictures) the first channel alone as a 32-bit float, a quarter of the
// memory traffic and, since the other channels are never stored, a quarter of the arithmetic.
#ifdef ONE_CHANNEL
layout(std430, binding = 1) writeonly buffer Target { float target[]; };
void store(uint i, vec4 v) { target[i] = v.r; }
#else
layout(std430, binding = 1) writeonly buffer Target { uvec2 target[]; };
void store(uint i, vec4 v) { target[i] = uvec2(packHalf2x16(v.rg), packHalf2x16(v.ba)); }
#endif
