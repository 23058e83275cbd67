#version 450
// 16-bit floating-point RGBA back to RGBA8, then exposure, contrast and saturation by the project's
// one colour definition (the CPU path's):
//   v = round_half_even(v) clamped to 0…255 (the resized 8-bit picture);
//   v₂ = v·2^e·c + 128·(1 − c);  Y = 0.299 R₂ + 0.587 G₂ + 0.114 B₂;  v₃ = Y + (v₂ − Y)·s;
//   out = round_half_even(v₃) clamped to 0…255, alpha untouched.
// A grid-stride loop over all pixels of all pictures.
layout(local_size_x = 256) in;

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
    if (p.adjust != 0) {
        vec3 c = v.rgb * p.gain + p.offset;
        float luma = dot(c, vec3(0.299, 0.587, 0.114));
        v.rgb = clamp(roundEven(luma + (c - luma) * p.saturation), 0.0, 255.0);
    }
    uvec4 b = uvec4(v);
    return b.r | (b.g << 8) | (b.b << 16) | (b.a << 24);
}
