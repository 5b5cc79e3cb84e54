#!/bin/sh
# Never answers in time: for timeout and cancel tests. Leaves a grandchild sleeping too,
# so a test can check the whole process group is killed; prints its pid first.
sleep 300 &
echo "grandchild: $!"
sleep 300
