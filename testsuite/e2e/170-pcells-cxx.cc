// 170-pcells-threads: std::thread (libstdc++'s pthread_create call).
#include <thread>
#include <vector>

static volatile unsigned long sink;

__attribute__((__noinline__, __noclone__)) void
cxx_work()
{
	sink++;
}

int
main()
{
	std::vector<std::thread> v;

	for (int i = 0; i < 6; i++)
		v.emplace_back([] { for (int k = 0; k < 3000; k++) cxx_work(); });
	for (auto &t : v)
		t.join();
	return 0;
}
