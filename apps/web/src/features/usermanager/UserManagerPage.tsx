import { Flex } from 'antd';
import { AddUserCard } from './AddUserCard';
import { UsersTable } from './UsersTable';

/** The user manager application (seed 001 section 2). */
export function UserManagerPage() {
  return (
    <Flex vertical gap={16}>
      <AddUserCard />
      <UsersTable />
    </Flex>
  );
}
