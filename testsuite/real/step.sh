#!/bin/sh
# step.sh PROJECT FUNCTION [ARG...] - run one function of a project
# script in its own process, so that strace follows exactly that step
# (run.sh exports REAL, SRC, B, DATA, JOBS, CC, CXX).
. "$REAL/$1.sh"
shift
"$@"
