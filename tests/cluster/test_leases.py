"""Driver leases in a real Redis: one owner at a time, renewed and released only by their owner,
and free again once they lapse."""

import asyncio

from redis.asyncio import Redis

from codecrack.web.leases import Leases


def test_a_lease_has_one_owner_who_alone_renews_and_releases_it(redis_url):
    async def scenario():
        client = Redis.from_url(redis_url)
        first, second = Leases(client, "first", ttl=30), Leases(client, "second", ttl=30)
        assert await first.acquire(["AAAAA", "BBBBB"]) == {"AAAAA", "BBBBB"}
        assert await second.acquire(["AAAAA", "CCCCC"]) == {"CCCCC"}
        assert await second.renew(["AAAAA", "CCCCC"]) == {"CCCCC"}
        await second.release(["AAAAA"])  # not its lease: nothing happens
        assert await first.renew(["AAAAA", "BBBBB"]) == {"AAAAA", "BBBBB"}
        await first.release(["AAAAA"])
        assert await second.acquire(["AAAAA"]) == {"AAAAA"}
        await client.aclose()

    asyncio.run(scenario())


def test_a_lease_that_is_not_renewed_lapses_and_another_instance_takes_it(redis_url):
    async def taken_by(leases: Leases) -> set[str]:
        return await leases.acquire(["AAAAA"])

    async def scenario():
        client = Redis.from_url(redis_url)
        dying, survivor = Leases(client, "dying", ttl=0.2), Leases(client, "survivor", ttl=0.2)
        assert await dying.acquire(["AAAAA"]) == {"AAAAA"}
        assert await survivor.acquire(["AAAAA"]) == set()
        while not await taken_by(survivor):  # the dying instance never renews
            await asyncio.sleep(0.05)
        assert await dying.renew(["AAAAA"]) == set()
        await client.aclose()

    asyncio.run(scenario())


def test_a_lease_that_lapsed_is_listed_until_taken_and_a_released_one_is_not(redis_url):
    """Issue 24 §5: what a live instance finds to take over after another one died."""

    async def scenario():
        client = Redis.from_url(redis_url)
        dying, survivor = Leases(client, "dying", ttl=0.2), Leases(client, "survivor", ttl=30)
        assert await dying.acquire(["AAAAA", "BBBBB"]) == {"AAAAA", "BBBBB"}
        await dying.release(["BBBBB"])  # handed over cleanly: nobody needs to take it over
        while not await survivor.lapsed(10):
            await asyncio.sleep(0.05)
        assert await survivor.lapsed(10) == ["AAAAA"]
        assert await survivor.acquire(["AAAAA"]) == {"AAAAA"}
        assert await survivor.lapsed(10) == []
        await client.aclose()

    asyncio.run(scenario())
