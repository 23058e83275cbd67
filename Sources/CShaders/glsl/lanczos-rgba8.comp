#version 450
// lanczos.glsl for the last (vertical) pass of packed pictures: RGBA working pictures in, the
// finished RGBA8 picture out (finish.glsl).
#extension GL_GOOGLE_include_directive : require
#define RGBA8
#include "lanczos.glsl"
