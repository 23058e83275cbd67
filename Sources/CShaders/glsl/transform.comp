#version 450
// transform.glsl for packed pictures (RGBA working pictures).
#extension GL_GOOGLE_include_directive : require
#include "transform.glsl"
