// Catch2's main lives alone here so the test files compile faster.
#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>
