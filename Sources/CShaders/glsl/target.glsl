// How the resize shaders write their results (binding 1). Working pictures, which the next pass
// reads as texels: RGBA as four 16-bit floats (two uints a pixel: half the memory of 32-bit), or
// with ONE_CHANNEL defined (one plane of YUV pictures) the first channel alone as a 32-bit float,
// a quarter of the memory traffic and, since the other channels are never stored, a quarter of
// the arithmetic. With RGBA8 defined (the last pass of packed pictures), the finished picture:
// RGBA8 by finished() (finish.glsl), so no float picture makes a round trip through memory.
#if defined(RGBA8)
layout(std430, binding = 1) writeonly buffer Target { uint target[]; };
#include "finish.glsl"
void store(uint i, vec4 v) { target[i] = finished(v, p.unpremultiply != 0, p.adjust != 0, p.gain, p.offset, p.saturation); }
#elif defined(ONE_CHANNEL)
layout(std430, binding = 1) writeonly buffer Target { float target[]; };
void store(uint i, vec4 v) { target[i] = v.r; }
#else
layout(std430, binding = 1) writeonly buffer Target { uvec2 target[]; };
void store(uint i, vec4 v) { target[i] = uvec2(packHalf2x16(v.rg), packHalf2x16(v.ba)); }
#endif
