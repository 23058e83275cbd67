#version 450
// 16-bit floating-point RGBA back to RGBA8 (round_half_even(v) clamped to 0…255: the resized 8-bit
// picture), then exposure, contrast and saturation by the project's one colour definition
// (colour.glsl), alpha untouched.
// A grid-stride loop over all pixels of all pictures.
#extension GL_GOOGLE_include_directive : require
layout(local_size_x = 256) in;

#include "colour.glsl"

// Read-only pictures and tables are uniform texel buffers: software devices fetch them with vector
// gathers, where storage-buffer loads go one invocation at a time.
layout(binding = 0) uniform samplerBuffer source;
layout(std430, binding = 1) writeonly buffer Target { uint target[]; };

layout(push_constant) uniform Constants {
    int count;
    int unpremultiply;
    int adjust;
    float gain;
    float offset;
    float saturation;
} p;

uint finished(vec4 v);

void main() {
    for (uint i = gl_GlobalInvocationID.x; i < uint(p.count); i += gl_NumWorkGroups.x * gl_WorkGroupSize.x) {
        target[i] = finished(texelFetch(source, int(i)));
    }
}

uint finished(vec4 v) {
    if (p.unpremultiply != 0) v.rgb = v.a > 0.0 ? v.rgb * (255.0 / v.a) : vec3(0.0);
    v = clamp(roundEven(v), 0.0, 255.0);
    if (p.adjust != 0) v.rgb = adjusted(v.rgb, p.gain, p.offset, p.saturation);
    uvec4 b = uvec4(v);
    return b.r | (b.g << 8) | (b.b << 16) | (b.a << 24);
}
