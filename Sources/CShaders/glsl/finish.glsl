// A resized RGBA pixel (alpha-premultiplied when `unpremultiply`) back to RGBA8:
// round_half_even(v) clamped to 0…255 (the resized 8-bit picture), then, when `adjust`, exposure,
// contrast and saturation by the project's one colour definition (colour.glsl), alpha untouched.
#include "colour.glsl"

uint finished(vec4 v, bool unpremultiply, bool adjust, float gain, float offset, float saturation) {
    if (unpremultiply) v.rgb = v.a > 0.0 ? v.rgb * (255.0 / v.a) : vec3(0.0);
    v = clamp(roundEven(v), 0.0, 255.0);
    if (adjust) v.rgb = adjusted(v.rgb, gain, offset, saturation);
    uvec4 b = uvec4(v);
    return b.r | (b.g << 8) | (b.b << 16) | (b.a << 24);
}
