#version 450
// One axis of a Lanczos3 resize (a = 3), floating-point RGBA in and out. Output sample o sits
// at source position (o + 0.5)·scale − 0.5 (centres aligned); when reducing, the kernel is
// stretched by the scale so it also filters out what the smaller picture cannot hold. Weights
// are normalised; samples past an edge repeat the edge.
layout(local_size_x = 16, local_size_y = 16) in;

layout(std430, binding = 0) readonly buffer Source { vec4 source[]; };
layout(std430, binding = 1) writeonly buffer Target { vec4 target[]; };

layout(push_constant) uniform Constants {
    int sourceWidth, sourceHeight;
    int width, height;
    int vertical;
    float scale;
} p;

const float PI = 3.14159265358979;

float lanczos3(float x) {
    if (abs(x) < 1e-6) return 1.0;
    if (abs(x) >= 3.0) return 0.0;
    float px = PI * x;
    return 3.0 * sin(px) * sin(px / 3.0) / (px * px);
}

void main() {
    ivec2 o = ivec2(gl_GlobalInvocationID.xy);
    int frame = int(gl_GlobalInvocationID.z);
    if (o.x >= p.width || o.y >= p.height) return;
    int along = p.vertical != 0 ? o.y : o.x;
    int count = p.vertical != 0 ? p.sourceHeight : p.sourceWidth;
    float stretch = max(p.scale, 1.0);
    float centre = (float(along) + 0.5) * p.scale - 0.5;
    int first = int(ceil(centre - 3.0 * stretch));
    int last = int(floor(centre + 3.0 * stretch));
    uint base = uint(frame) * uint(p.sourceWidth * p.sourceHeight);
    vec4 sum = vec4(0.0);
    float total = 0.0;
    for (int i = first; i <= last; i++) {
        float w = lanczos3((float(i) - centre) / stretch);
        int s = clamp(i, 0, count - 1);
        uint index = p.vertical != 0 ? uint(s * p.sourceWidth + o.x) : uint(o.y * p.sourceWidth + s);
        sum += w * source[base + index];
        total += w;
    }
    target[uint(frame) * uint(p.width * p.height) + uint(o.y * p.width + o.x)] = sum / total;
}
