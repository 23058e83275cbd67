#version 450
// RGBA8 pictures to planar YUV 4:2:0 by the video's own matrix and range (what the CPU path's
// swscale writes), given as rows: Y = lumaOffset + (lumaR, lumaG, lumaB)·RGB, Cb = 128 +
// (blueR, blueG, blueB)·RGB, Cr = 128 + (redR, redG, redB)·RGB (BT.601 limited range: luma
// (65.481, 128.553, 24.966)/255 from 16), each chroma sample from the mean of its 2×2 pixels,
// rounded. Each step of an invocation's grid-stride loop writes four bytes of one plane row.
// Per picture the planes lie Y, Cb, Cr, rows `lumaStride` and `chromaStride` bytes apart
// (multiples of 4). (YUV pictures with a colour change go through lanczos-yuv420.comp instead.)
#extension GL_GOOGLE_include_directive : require
layout(local_size_x = 16, local_size_y = 16) in;

// Read-only pictures and tables are uniform texel buffers: software devices fetch them with vector
// gathers, where storage-buffer loads go one invocation at a time.
layout(binding = 0) uniform usamplerBuffer source;
layout(std430, binding = 1) writeonly buffer Target { uint target[]; };

layout(push_constant) uniform Constants {
    int width, height;
    int lumaStride, chromaStride;
    int chroma;
    int frames;
    float lumaR, lumaG, lumaB, lumaOffset;
    float blueR, blueG, blueB;
    float redR, redG, redB;
} p;

void convert(int word, int row, int frame);

vec3 rgb(int frame, int x, int y) {
    x = min(x, p.width - 1);
    y = min(y, p.height - 1);
    uint v = texelFetch(source, int(uint(frame) * uint(p.width * p.height) + uint(y * p.width + x))).r;
    return vec3(float(v & 255u), float((v >> 8) & 255u), float((v >> 16) & 255u));
}

uint byte(float v) { return uint(clamp(floor(v + 0.5), 0.0, 255.0)); }

void main() {
    int words = (p.chroma == 0 ? p.lumaStride : p.chromaStride) / 4;
    int rows = p.chroma == 0 ? p.height : (p.height + 1) / 2;
    ivec2 grid = ivec2(gl_NumWorkGroups.xy * gl_WorkGroupSize.xy);
    for (int frame = 0; frame < p.frames; frame++) {
        for (int row = int(gl_GlobalInvocationID.y); row < rows; row += grid.y) {
            for (int word = int(gl_GlobalInvocationID.x); word < words; word += grid.x) {
                convert(word, row, frame);
            }
        }
    }
}

void convert(int word, int row, int frame) {
    int chromaWidth = (p.width + 1) / 2, chromaHeight = (p.height + 1) / 2;
    int lumaBytes = p.lumaStride * p.height, chromaBytes = p.chromaStride * chromaHeight;
    uint frameBase = uint(frame) * uint(lumaBytes + 2 * chromaBytes) / 4u;
    if (p.chroma == 0) {
        if (word * 4 >= p.lumaStride || row >= p.height) return;
        uint packed = 0u;
        for (int k = 0; k < 4; k++) {
            int x = word * 4 + k;
            if (x >= p.width) break;
            vec3 c = rgb(frame, x, row);
            packed |= byte(p.lumaOffset + dot(c, vec3(p.lumaR, p.lumaG, p.lumaB))) << (8 * k);
        }
        target[frameBase + uint(row * p.lumaStride / 4 + word)] = packed;
    } else {
        if (word * 4 >= p.chromaStride || row >= chromaHeight) return;
        uint cb = 0u, cr = 0u;
        for (int k = 0; k < 4; k++) {
            int x = word * 4 + k;
            if (x >= chromaWidth) break;
            vec3 c = (rgb(frame, 2 * x, 2 * row) + rgb(frame, 2 * x + 1, 2 * row)
                      + rgb(frame, 2 * x, 2 * row + 1) + rgb(frame, 2 * x + 1, 2 * row + 1)) / 4.0;
            cb |= byte(128.0 + dot(c, vec3(p.blueR, p.blueG, p.blueB))) << (8 * k);
            cr |= byte(128.0 + dot(c, vec3(p.redR, p.redG, p.redB))) << (8 * k);
        }
        uint chromaBase = frameBase + uint(lumaBytes / 4 + row * p.chromaStride / 4 + word);
        target[chromaBase] = cb;
        target[chromaBase + uint(chromaBytes / 4)] = cr;
    }
}
