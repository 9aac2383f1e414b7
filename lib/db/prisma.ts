import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaClient } from "@/lib/generated/prisma/client";
import { getPool } from "./pool";

const globalForPrisma = globalThis as unknown as { orderOpsPrisma?: PrismaClient };

/** The Prisma client, over the process's one pg pool. Made on first use, like the pool. */
export function getPrisma(): PrismaClient {
  globalForPrisma.orderOpsPrisma ??= new PrismaClient({ adapter: new PrismaPg(getPool()) });
  return globalForPrisma.orderOpsPrisma;
}

export async function disconnectPrisma(): Promise<void> {
  const client = globalForPrisma.orderOpsPrisma;
  globalForPrisma.orderOpsPrisma = undefined;
  await client?.$disconnect();
}
