/// @file doctest_main.cpp
/// @brief The shared main() of every test executable.
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>
