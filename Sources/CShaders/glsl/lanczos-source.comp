#version 450
// lanczos-source.glsl for packed pictures (RGBA working pictures).
#extension GL_GOOGLE_include_directive : require
#include "lanczos-source.glsl"
