// The resize shaders' main: a grid-stride loop in which each invocation walks output pixels of
// every picture (no division), so that a dispatch needs few workgroups (software devices pay for
// each one), storing OUTPUT(frame, pixel) for each as target.glsl says, rows STRIDE samples
// apart (p.width unless the including shader defines it). The including shader defines OUTPUT
// and has p.width, p.height and p.frames among its push constants.
#ifndef STRIDE
#define STRIDE p.width
#endif
void main() {
    ivec2 grid = ivec2(gl_NumWorkGroups.xy * gl_WorkGroupSize.xy);
    for (int frame = 0; frame < p.frames; frame++) {
        uint base = uint(frame) * uint(STRIDE * p.height);
        for (int y = int(gl_GlobalInvocationID.y); y < p.height; y += grid.y) {
            for (int x = int(gl_GlobalInvocationID.x); x < p.width; x += grid.x) {
                store(base + uint(y * STRIDE + x), OUTPUT(frame, ivec2(x, y)));
            }
        }
    }
}
