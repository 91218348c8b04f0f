// placeholder, replaced below
#include <gtest/gtest.h>
TEST(Smoke, Builds) {}
