#!/bin/sh
# Answers nothing and succeeds: an empty answer (VOID), not a refusal.
exit 0
